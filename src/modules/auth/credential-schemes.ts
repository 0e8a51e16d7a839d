import type { CredentialScheme } from '../../common/swagger/security';
import { SESSION_COOKIE } from '../accounts/session-cookie';

/** `x-api-key: <PLACE_API_KEY>`: the place's key, on the check-in and app routes. */
export const PLACE_KEY: CredentialScheme = {
  name: 'x-api-key',
  scheme: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "The place's API key" },
};

/** The JWT from POST /partner/auth, on the `/partner/*` routes. */
export const ACCESS_TOKEN: CredentialScheme = {
  name: 'bearer',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token from POST /partner/auth; lives JWT_TTL_SECONDS (24 hours by default)',
  },
};

/** ADMIN_API_TOKEN: a static secret of the configuration, not a JWT. */
export const ADMIN_TOKEN: CredentialScheme = {
  name: 'admin',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    description: "ADMIN_API_TOKEN of the service's configuration (automation; acts as an operator)",
  },
};

/** MEMBER_API_TOKEN: a static secret of the configuration, not a JWT. */
export const MEMBER_TOKEN: CredentialScheme = {
  name: 'member',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    description: "MEMBER_API_TOKEN of the service's configuration, for the platform's app backend",
  },
};

/** The console's session cookie. */
export const CONSOLE_SESSION: CredentialScheme = {
  name: 'session',
  scheme: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'Console session from POST /account/session (HttpOnly, SameSite=Lax). A POST, PUT, PATCH or DELETE also needs X-CSRF-Token.',
  },
};
