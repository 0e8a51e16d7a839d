import Negotiator from 'negotiator';

/** The languages of `detail` and `message`; labels never change. pt-BR first: the gyms' front desks. */
export const LOCALES = ['pt-BR', 'es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return LOCALES.includes(value as Locale);
}

/**
 * The best of our languages for an `Accept-Language` header (`pt` and `pt-PT` get pt-BR, `es-419` es,
 * `en-US` en), or `fallback` when the header names none of them.
 */
export function negotiateLocale(acceptLanguage: string | string[] | undefined, fallback: Locale): Locale {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (!header) return fallback;
  const [best] = new Negotiator({ headers: { 'accept-language': header } }).languages([...LOCALES]);
  return isLocale(best) ? best : fallback;
}
