import i18next from 'i18next';
import { ErrorLabel } from '../errors/error-label';
import { en } from './catalogs/en';
import { es } from './catalogs/es';
import { ptBR } from './catalogs/pt-BR';
import { Locale } from './locale';

export type MessageKey = keyof typeof en;
export type MessageParams = Record<string, string | number>;

/** A sentence for people, kept as a key and its values until the language of the reader is known. */
export interface Message {
  key: MessageKey;
  params?: MessageParams;
}

/** Every language has every key (the type says so; the spec checks the placeholders match). */
export type Catalog = Record<MessageKey, string>;

export const CATALOGS: Record<Locale, Catalog> = { en, 'pt-BR': ptBR, es };

export function message(key: MessageKey, params?: MessageParams): Message {
  return params ? { key, params } : { key };
}

/** The label's own sentence, used when nothing more specific is said. */
export function labelMessage(label: ErrorLabel): Message {
  return { key: `label.${label}` };
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(en, value);
}

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(
    Object.entries(CATALOGS).map(([locale, catalog]) => [locale, { translation: catalog }]),
  ),
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: Object.keys(CATALOGS),
  // Keys are flat ("checkIn.alreadyUsed"), values are plain text (JSON bodies, not HTML).
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export function translate(locale: Locale, { key, params }: Message): string {
  return i18n.t(key, { ...params, lng: locale });
}
