import { can } from './permissions';

describe('can', () => {
  const permissions = { places: ['list', 'show', 'rotate'], 'partner-key': ['reveal'] };

  it('offers what the session may do, as the service said', () => {
    expect(can(permissions, 'places', 'rotate')).toBe(true);
    expect(can(permissions, 'partner-key', 'reveal')).toBe(true);
  });

  it('offers nothing else: another action, another resource, no session', () => {
    expect(can(permissions, 'places', 'delete')).toBe(false);
    expect(can(permissions, 'partner-key', 'rotate')).toBe(false);
    expect(can(permissions, 'accounts', 'list')).toBe(false);
    expect(can(permissions, undefined, 'list')).toBe(false);
    expect(can(undefined, 'places', 'list')).toBe(false);
  });
});
