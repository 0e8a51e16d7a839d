import type { AuthProvider } from 'react-admin';
import { api, errorLabel, setCsrfToken } from './http';
import { can } from './permissions';
import type { Account, Session } from './types';

/**
 * Sessions live on the server (an httpOnly cookie); the console only remembers who is signed in and the
 * CSRF token for this page, both from GET /account/session.
 */

let session: Promise<Session> | null = null;
/** Whether this page was signed in: a refusal of the session then means it ended, and sign-in says so. */
let signedIn = false;
const ENDED_KEY = 'console.session_ended';

function remember(value: Session): Session {
  setCsrfToken(value.csrf_token);
  signedIn = true;
  return value;
}

/** The session this page had ended on the server (idle, its lifetime over, or signed out elsewhere). */
function noteSessionEnded(): void {
  if (!signedIn) return;
  signedIn = false;
  try {
    sessionStorage.setItem(ENDED_KEY, '1');
  } catch {
    // No storage (private mode): the sign-in page just says nothing.
  }
}

/** Whether a session ended by itself before this sign-in page: it says why the person is back there. */
export function sessionEnded(): boolean {
  try {
    return sessionStorage.getItem(ENDED_KEY) === '1';
  } catch {
    return false;
  }
}

/** Said once: the next sign-in page (after signing out, say) starts without it. */
export function forgetSessionEnded(): void {
  try {
    sessionStorage.removeItem(ENDED_KEY);
  } catch {
    // Nothing stored.
  }
}

function forget(): void {
  session = null;
  setCsrfToken(null);
}

function currentSession(): Promise<Session> {
  session ??= api.get<Session>('/account/session').then(remember);
  session.catch(forget);
  return session;
}

export async function currentAccount(): Promise<Account> {
  return (await currentSession()).account;
}

export const authProvider: AuthProvider = {
  async login({ email, password }: { email: string; password: string }) {
    forget();
    const signedIn = remember(await api.post<Session>('/account/session', { email, password }));
    session = Promise.resolve(signedIn);
  },

  async logout() {
    const ending = session;
    signedIn = false;
    forget();
    if (!ending) return;
    try {
      await ending;
      await api.delete('/account/session');
    } catch {
      // Already over on the server: nothing left to end.
    }
  },

  async checkAuth() {
    try {
      await currentSession();
    } catch {
      // Not signed in, or the session ended: the sign-in page says which, no error toast.
      noteSessionEnded();
      throw { message: false };
    }
  },

  async checkError(error: { status?: number }) {
    if (error?.status === 401 && errorLabel(error) !== 'invalid_credentials') {
      noteSessionEnded();
      forget();
      throw { message: false };
    }
    // 403 and 404 stay on the page: the screen says what was refused.
  },

  async getIdentity() {
    const account = await currentAccount();
    return { id: account.id, fullName: account.name, account };
  },

  async getPermissions() {
    try {
      return (await currentAccount()).role;
    } catch {
      return undefined;
    }
  },

  async canAccess({ action, resource }: { action: string; resource: string }) {
    try {
      return can(await currentAccount(), resource, action);
    } catch {
      return false;
    }
  },
};
