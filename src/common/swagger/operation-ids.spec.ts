import { operationIdOf } from './operation-ids';

describe('operationIdOf', () => {
  it("gives a handler named with a verb alone its controller's resource, plural after list and export", () => {
    expect(operationIdOf('PartnersAdminController', 'get')).toBe('getPartner');
    expect(operationIdOf('PartnersAdminController', 'list')).toBe('listPartners');
    expect(operationIdOf('BeneficiariesAdminController', 'create')).toBe('createBeneficiary');
    expect(operationIdOf('DeliveriesAdminController', 'export')).toBe('exportDeliveries');
    expect(operationIdOf('HealthController', 'check')).toBe('checkHealth');
    expect(operationIdOf('AccessController', 'get')).toBe('getAccess');
  });

  it('keeps a handler named with a verb and its object as it is', () => {
    expect(operationIdOf('CheckInController', 'validateTrackUsage')).toBe('validateTrackUsage');
    expect(operationIdOf('PlacesAdminController', 'rotatePlaceKey')).toBe('rotatePlaceKey');
  });

  it('tells apart the paths of one handler and its versions', () => {
    expect(operationIdOf('PlansController', 'list[1]')).toBe('listPlansAlias1');
    expect(operationIdOf('PlansController', 'list', '2')).toBe('listPlansV2');
  });
});
