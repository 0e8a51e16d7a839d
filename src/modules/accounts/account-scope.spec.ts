import { DomainError } from '../../common/errors/domain-error';
import { resolveScope } from './account-scope';

const detail = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as DomainError).message;
  }
  return 'no error';
};

describe('resolveScope', () => {
  it('gives staff no scope, and refuses one', () => {
    expect(resolveScope('operator', {})).toEqual({ partnerId: null, placeIds: [] });
    expect(resolveScope('support', { partnerId: null, placeIds: [] })).toEqual({
      partnerId: null,
      placeIds: [],
    });
    expect(detail(() => resolveScope('support', { partnerId: 3 }))).toBe(
      'only a gym account has partner_id or place_ids',
    );
    expect(detail(() => resolveScope('operator', { placeIds: ['a'] }))).toBe(
      'only a gym account has partner_id or place_ids',
    );
  });

  it('gives a gym account a partner or a list of places, never both nor neither', () => {
    expect(resolveScope('gym', { partnerId: 3 })).toEqual({ partnerId: 3, placeIds: [] });
    expect(resolveScope('gym', { placeIds: ['a', 'b', 'a'] })).toEqual({
      partnerId: null,
      placeIds: ['a', 'b'],
    });
    expect(detail(() => resolveScope('gym', { partnerId: 3, placeIds: ['a'] }))).toBe(
      'a gym account has partner_id or place_ids, not both',
    );
    expect(detail(() => resolveScope('gym', {}))).toMatch(/^a gym account needs partner_id/);
  });

  it('keeps the current scope when a change does not name one, and replaces it when it does', () => {
    const current = { partnerId: 3, placeIds: [] };
    expect(resolveScope('gym', {}, current)).toBe(current);
    expect(resolveScope('gym', { placeIds: ['a'] }, current)).toEqual({ partnerId: null, placeIds: ['a'] });
    expect(detail(() => resolveScope('gym', { partnerId: null }, current))).toMatch(/needs partner_id/);
    expect(detail(() => resolveScope('gym', { placeIds: [] }, { partnerId: null, placeIds: ['a'] }))).toMatch(
      /needs partner_id/,
    );
  });
});
