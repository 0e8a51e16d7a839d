import { HttpError } from 'react-admin';

/**
 * One fetch for the whole console: same-origin cookie, the reader's language, the CSRF token on changes,
 * and the service's error envelope turned into an HttpError whose message is the server's own sentence.
 */

export interface ErrorEnvelope {
  errors: { status: string; title: string; label: string; detail: string }[];
}

type Query = Record<string, string | number | boolean | null | undefined>;

let csrfToken: string | null = null;
let currentLanguage = 'pt-BR';

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function setLanguage(language: string): void {
  currentLanguage = language;
}

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The error's label (`invalid_session`, `forbidden`, ...) when the service sent its envelope. */
export function errorLabel(error: unknown): string | undefined {
  const body = (error as { body?: ErrorEnvelope } | undefined)?.body;
  return body?.errors?.[0]?.label;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new HttpError('app.error.network', 0);
  }
  const text = await response.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!response.ok) {
    const detail = (json as ErrorEnvelope | undefined)?.errors?.[0]?.detail;
    throw new HttpError(detail || 'app.error.unexpected', response.status, json);
  }
  return json as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
