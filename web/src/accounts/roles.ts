export const ROLE_CHOICES = ['operator', 'support', 'gym'].map((id) => ({ id, name: `app.role.${id}` }));
export const SCOPE_CHOICES = [
  { id: 'partner', name: 'app.accounts.scope_partner' },
  { id: 'places', name: 'app.accounts.scope_places' },
];

/**
 * The body fields of an account's role and scope, from what the form holds: a chain account carries its
 * partner, a place-scoped one its places, operators and support neither (cleared when an account changes).
 */
export function scopeFields(data: Record<string, unknown>): Record<string, unknown> {
  const { scope, partner_id, place_ids, ...rest } = data;
  if (rest.role !== 'gym')
    return {
      ...rest,
      ...(partner_id != null && { partner_id: null }),
      ...(Array.isArray(place_ids) && place_ids.length > 0 && { place_ids: [] }),
    };
  if (scope === 'partner')
    return {
      ...rest,
      partner_id,
      ...(Array.isArray(place_ids) && place_ids.length > 0 && { place_ids: [] }),
    };
  return { ...rest, place_ids: place_ids ?? [], ...(partner_id != null && { partner_id: null }) };
}
