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

/** Claims of the partner token. Raw keys never go into claims; key versions let rotation revoke tokens. */
export interface PartnerTokenClaims {
  sub: string;
  partner_id: number;
  pkv: number;
  ptkv: number;
  iat?: number;
  exp?: number;
}
