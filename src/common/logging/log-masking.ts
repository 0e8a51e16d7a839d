/**
 * What a log line must never hold, and the one rule that masks it. The logger applies it to every line
 * (`createLogger`): to a URL logged as `url` or `req.url`, to an error's message and stack, and to the text of
 * every message, whatever the level. Request bodies and headers are never logged at all.
 */

/**
 * Path segments whose following segments are a capability: whoever holds the token can use it (confirm a
 * visit, set an account's password), so it is a credential. A route that takes a token in its path names its
 * segment here; `test/secret-logging.e2e-spec.ts` fails for a route with a `:token` parameter missing from it.
 */
export const CAPABILITY_SEGMENTS = ['webhook_confirmations', 'password-links', 'set-password'] as const;

/** A query parameter whose name says it carries a credential (`?token=`, `?api_key=`, `?access_token=` ...). */
const SECRET_QUERY_NAME = /token|secret|passw|key|sign|auth|session|cookie|credential|jwt|bearer/i;

const MASK = '***';

const CPF_IN_TEXT = /\b(\d{3})\.?\d{3}\.?\d{3}-?(\d{2})\b/g;

/** Masks CPFs wherever they appear in logged text (e.g. PATCH /admin/beneficiaries/:cpf). */
export function maskCpfsInText(text: string): string {
  return text.replace(CPF_IN_TEXT, '$1.***.***-$2');
}

/** A separator a client may put between a CPF's digits in a URL: `.`, `-`, space, `+`, or their %-encodings. */
const URL_CPF_SEPARATOR = String.raw`(?:[.\- +]|%2[0BbDdEe])`;
/** Eleven digits with up to three separators between any two, not part of a longer run of digits. */
const CPF_IN_URL = new RegExp(String.raw`(?<!\d)\d(?:${URL_CPF_SEPARATOR}{0,3}\d){10}(?!\d)`, 'g');

/** Masks CPFs in a URL however they are written: `987.654.321-00`, `987%20654%20321%2000`, `987+654+321+00`. */
export function maskCpfsInUrl(url: string): string {
  return maskCpfsInText(
    url.replace(CPF_IN_URL, (found) => {
      const digits = found.replace(/%2[0BbDdEe]/g, '').replace(/\D/g, '');
      return `${digits.slice(0, 3)}.***.***-${digits.slice(9)}`;
    }),
  );
}

/** The text as a reader of the URL would take it: %-decoded (twice over at most, as a proxy may), `+` a space. */
function decoded(text: string): string {
  let current = text.replace(/\+/g, ' ');
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current.toLowerCase();
    }
    if (next === current) break;
    current = next;
  }
  return current.toLowerCase();
}

const holdsCapability = (text: string) => CAPABILITY_SEGMENTS.some((segment) => text.includes(segment));

/**
 * Everything after a capability segment is masked: `/api/v1/webhook_confirmations/***`. A segment that only
 * holds one (`webhook_confirmations%2F<token>`, a client's typo of the route) is masked whole with the rest.
 */
function maskPath(path: string): string {
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = decoded(segments[i]);
    if ((CAPABILITY_SEGMENTS as readonly string[]).includes(segment)) {
      return i + 1 < segments.length ? [...segments.slice(0, i + 1), MASK].join('/') : path;
    }
    if (holdsCapability(segment)) return [...segments.slice(0, i), MASK].join('/');
  }
  return path;
}

function maskQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      if (SECRET_QUERY_NAME.test(decoded(name))) return `${name}=${MASK}`;
      if (equals !== -1 && holdsCapability(decoded(pair.slice(equals + 1)))) return `${name}=${MASK}`;
      return pair;
    })
    .join('&');
}

/**
 * A URL as a log may show it: the tokens of capability paths masked whatever the prefix or route, the values
 * of credential-named query parameters masked, the fragment dropped (a client that sends the console's
 * `#/set-password/<token>` link raw sends its token there), and CPFs masked.
 */
export function maskUrl(url: string): string {
  const fragmentAt = url.indexOf('#');
  const beforeFragment = fragmentAt === -1 ? url : url.slice(0, fragmentAt);
  const queryAt = beforeFragment.indexOf('?');
  const path = queryAt === -1 ? beforeFragment : beforeFragment.slice(0, queryAt);
  const query = queryAt === -1 ? '' : `?${maskQuery(beforeFragment.slice(queryAt + 1))}`;
  return maskCpfsInUrl(`${maskPath(path)}${query}${fragmentAt === -1 ? '' : `#${MASK}`}`);
}

const CAPABILITY_IN_TEXT = new RegExp(`(/(?:${CAPABILITY_SEGMENTS.join('|')})/)[^\\s"'\`<>]+`, 'gi');

/** Masks capability tokens in free text (an error message quoting a URL, a message a library wrote). */
export function maskSecretsInText(text: string): string {
  return text.replace(CAPABILITY_IN_TEXT, `$1${MASK}`);
}
