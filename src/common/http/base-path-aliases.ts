/**
 * Public clients of the platform this service mirrors build their URLs from a base that ends in `/service`
 * (production) or `/api` (sandbox): `<base>/v1/track_usages`. The check-in and app routes therefore also answer
 * under those prefixes, rewritten before routing to the one canonical handler.
 */
export const ALIAS_PREFIXES = ['/service', '/api'] as const;
/** The canonical paths (and everything under them) that the aliases reach. */
export const ALIASED_PATHS = ['/v1/track_usages', '/partner_app/v1/validate'] as const;

function isAliased(path: string): boolean {
  return ALIASED_PATHS.some(
    (canonical) => path === canonical || path.startsWith(`${canonical}/`) || path.startsWith(`${canonical}?`),
  );
}

/** `/service/v1/track_usages?x` → `/v1/track_usages?x`; any other URL unchanged. */
export function canonicalUrl(url: string): string {
  for (const prefix of ALIAS_PREFIXES) {
    if (url.startsWith(`${prefix}/`) && isAliased(url.slice(prefix.length))) return url.slice(prefix.length);
  }
  return url;
}

/** The alias paths of a canonical path, for the docs; none for a path the aliases do not reach. */
export function aliasesOf(path: string): string[] {
  return isAliased(path) ? ALIAS_PREFIXES.map((prefix) => `${prefix}${path}`) : [];
}
