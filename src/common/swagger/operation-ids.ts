/**
 * Operation ids that client generators turn into method names: verb first, camelCase, unique, and stable (they
 * change only when a handler or its controller is renamed).
 *
 * A handler named with a verb alone takes its controller's resource: `PartnersAdminController.get` →
 * `getPartner`, `.list` → `listPartners` (plural after `list` and `export`). A handler named with a verb and its
 * object is its own id (`CheckInController.validateTrackUsage` → `validateTrackUsage`): name it so when the
 * resource alone would not say what the route does, or would repeat another controller's id.
 */
export function operationIdOf(controllerKey: string, methodKey: string, version?: string): string {
  const [, handler, alias] = /^(.*?)(?:\[(\d+)\])?$/.exec(methodKey) as RegExpExecArray;
  const id = /[A-Z]/.test(handler) ? handler : handler + resourceOf(controllerKey, handler);
  return `${id}${alias ? `Alias${alias}` : ''}${version ? `V${version}` : ''}`;
}

/** `PartnersAdminController` → `Partners` after list and export, `Partner` otherwise. */
function resourceOf(controllerKey: string, verb: string): string {
  const plural = controllerKey.replace(/Controller$/, '').replace(/Admin$/, '');
  if (verb === 'list' || verb === 'export') return plural;
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (plural.endsWith('s') && !plural.endsWith('ss')) return plural.slice(0, -1);
  return plural;
}
