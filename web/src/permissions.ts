import type { Permissions } from './types';

/**
 * Whether the console offers an action. The service says what a session may do (`permissions` of GET
 * /account/session, from the roles its routes let in), so the console keeps no copy of the roles: it only hides
 * what the service would refuse.
 */
export function can(
  permissions: Permissions | undefined,
  resource: string | undefined,
  action: string,
): boolean {
  if (!permissions || !resource) return false;
  return permissions[resource]?.includes(action) ?? false;
}
