import type { Account, Role } from './types';

/**
 * What each role may see and do, mirroring what the service enforces (it refuses the rest anyway):
 * the console only hides what would be refused.
 */

type Rules = Record<string, string[]>;

const READ = ['list', 'show'];

/** The only things the service lets anyone delete: a place's plans and its webhook. */
const DELETABLE = new Set(['place-plans', 'place-webhooks']);

const RULES: Record<Role, Rules | '*'> = {
  operator: '*',
  support: {
    partners: READ,
    places: READ,
    'place-plans': ['list'],
    'place-visits': ['list'],
    'place-app-check-ins': ['list'],
    'place-webhooks': ['list'],
    'benefit-plans': ['list'],
    beneficiaries: READ,
    'beneficiary-visits': ['list'],
    'beneficiary-check-ins': ['list'],
    visits: ['list'],
    deliveries: [...READ, 'redeliver'],
  },
  gym: {
    places: [...READ, 'reveal', 'rotate'],
    'place-plans': ['list'],
    'place-visits': ['list'],
    'place-app-check-ins': ['list'],
    'place-webhooks': ['list', 'create', 'edit', 'delete', 'test'],
    deliveries: [...READ, 'redeliver'],
  },
};

export function can(account: Account | undefined, resource: string | undefined, action: string): boolean {
  if (!account || !resource) return false;
  const rules = RULES[account.role];
  if (rules === undefined) return false;
  if (resource === 'partner-key') {
    // A chain account holds its partner's key; place-scoped accounts never see it.
    if (account.role === 'operator') return true;
    return account.role === 'gym' && account.partner_id !== null && ['reveal', 'rotate'].includes(action);
  }
  if (rules === '*') return action !== 'delete' || DELETABLE.has(resource);
  return rules[resource]?.includes(action) ?? false;
}
