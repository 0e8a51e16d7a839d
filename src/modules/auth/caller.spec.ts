import type { FastifyRequest } from 'fastify';
import { Caller, SessionAccount } from './caller';

const request = { ip: '203.0.113.7', id: 'req-1' } as FastifyRequest;
const account = (overrides: Partial<SessionAccount>): SessionAccount => ({
  id: 5,
  email: 'ana@example.com',
  name: 'Ana',
  role: 'gym',
  partnerId: null,
  placeIds: [],
  ...overrides,
});
const ours = { id: 'place-1', partnerId: 7 };
const sibling = { id: 'place-2', partnerId: 7 };
const theirs = { id: 'place-3', partnerId: 8 };

describe('Caller', () => {
  it('treats the admin token as an operator that reaches everything', () => {
    const caller = Caller.adminToken(request);
    expect(caller.role).toBe('operator');
    expect([
      caller.seesWholeKeys,
      caller.seesWholeCpfs,
      caller.reachesPlace(theirs),
      caller.reachesPartnerKey(8),
    ]).toEqual([true, true, true, true]);
    expect(caller.actor).toEqual({
      type: 'admin-token',
      id: null,
      label: 'admin-token',
      address: '203.0.113.7',
      requestId: 'req-1',
    });
  });

  it('lets support read every place with keys and CPFs masked, and no partner key', () => {
    const caller = Caller.session(account({ role: 'support' }), request);
    expect([
      caller.seesWholeKeys,
      caller.seesWholeCpfs,
      caller.reachesPlace(theirs),
      caller.reachesPartnerKey(7),
    ]).toEqual([false, false, true, false]);
    expect(caller.actor).toMatchObject({ type: 'account', id: '5', label: 'ana@example.com' });
  });

  it('scopes a chain account to its partner’s places and key', () => {
    const caller = Caller.session(account({ partnerId: 7 }), request);
    expect(caller.placeScope).toEqual({ partnerId: 7 });
    expect([caller.reachesPlace(ours), caller.reachesPlace(sibling), caller.reachesPlace(theirs)]).toEqual([
      true,
      true,
      false,
    ]);
    expect([caller.reachesPartnerKey(7), caller.reachesPartnerKey(8)]).toEqual([true, false]);
    expect(caller.seesWholeKeys).toBe(false);
  });

  it('scopes an account of listed places to those places, without the partner key', () => {
    const caller = Caller.session(account({ placeIds: ['place-1'] }), request);
    expect(caller.placeScope).toEqual({ placeIds: ['place-1'] });
    expect([caller.reachesPlace(ours), caller.reachesPlace(sibling), caller.reachesPartnerKey(7)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
