import type { PlaceKeyRow } from '../partners/api-keys.repository';

/** The gym a request acts for, resolved from its `x-api-key` or its bearer token. */
export interface AuthenticatedPlace {
  placeId: string;
  placeCode: string;
  placeName: string;
  placeActive: boolean;
  partnerId: number;
  /** Bumped by each rotation of the place's key; the check-in query compares it with the database's. */
  keyVersion: number;
}

/** The place as a request acting for it sees it, from its row (found by key, by token or by id). */
export function authenticatedPlace(place: Omit<PlaceKeyRow, 'partnerKeyVersion'>): AuthenticatedPlace {
  return {
    placeId: place.id,
    placeCode: place.code,
    placeName: place.name,
    placeActive: place.active,
    partnerId: place.partnerId,
    keyVersion: place.keyVersion,
  };
}

/** Claims of the partner token. Raw keys never go into claims; key versions let rotation revoke tokens. */
export interface PartnerTokenClaims {
  sub: string;
  partner_id: number;
  pkv: number;
  ptkv: number;
  iat?: number;
  exp?: number;
}
