import { can } from './permissions';
import type { Account } from './types';

const account = (overrides: Partial<Account>): Account => ({
  id: 1,
  email: 'a@example.com',
  name: 'A',
  role: 'operator',
  partner_id: null,
  place_ids: [],
  active: true,
  created_at: '2026-11-01T00:00:00Z',
  last_login_at: null,
  ...overrides,
});

describe('can', () => {
  it('lets operators do everything the service offers', () => {
    expect(can(account({ role: 'operator' }), 'places', 'rotate')).toBe(true);
    expect(can(account({ role: 'operator' }), 'accounts', 'create')).toBe(true);
    expect(can(account({ role: 'operator' }), 'place-plans', 'delete')).toBe(true);
  });

  it('offers no delete where the service has none (places, beneficiaries, accounts are deactivated)', () => {
    expect(can(account({ role: 'operator' }), 'places', 'delete')).toBe(false);
    expect(can(account({ role: 'operator' }), 'beneficiaries', 'delete')).toBe(false);
  });

  it('lets support read and redeliver, never reveal, rotate or change', () => {
    const support = account({ role: 'support' });
    expect(can(support, 'deliveries', 'redeliver')).toBe(true);
    expect(can(support, 'places', 'show')).toBe(true);
    expect(can(support, 'places', 'rotate')).toBe(false);
    expect(can(support, 'places', 'reveal')).toBe(false);
    expect(can(support, 'partner-key', 'reveal')).toBe(false);
    expect(can(support, 'beneficiaries', 'edit')).toBe(false);
    expect(can(support, 'accounts', 'list')).toBe(false);
    expect(can(support, 'audit', 'list')).toBe(false);
  });

  it('gives gym staff their integration section, and the partner key only to chain accounts', () => {
    const places = account({ role: 'gym', place_ids: ['p1'] });
    const chain = account({ role: 'gym', partner_id: 7 });
    expect(can(places, 'places', 'rotate')).toBe(true);
    expect(can(places, 'place-webhooks', 'test')).toBe(true);
    expect(can(places, 'partners', 'list')).toBe(false);
    expect(can(places, 'beneficiaries', 'list')).toBe(false);
    expect(can(places, 'partner-key', 'reveal')).toBe(false);
    expect(can(chain, 'partner-key', 'rotate')).toBe(true);
  });

  it('allows nothing without an account', () => {
    expect(can(undefined, 'places', 'list')).toBe(false);
  });
});
