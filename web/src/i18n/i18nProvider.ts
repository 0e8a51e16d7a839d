import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishRa from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { setLanguage } from '../http';
import en from './en';
import ptBR from './pt-BR';
import raPortuguese from './ra-pt-BR';

export const DEFAULT_LOCALE = 'pt-BR';

const catalogues: Record<string, TranslationMessages> = {
  'pt-BR': { ...raPortuguese, ...ptBR },
  en: { ...englishRa, ...en },
};

function applyLanguage(locale: string): void {
  setLanguage(locale);
  document.documentElement.lang = locale;
}

const polyglot = polyglotI18nProvider(
  (locale) => catalogues[locale] ?? catalogues[DEFAULT_LOCALE],
  DEFAULT_LOCALE,
  [
    { locale: 'pt-BR', name: 'Português (Brasil)' },
    { locale: 'en', name: 'English' },
  ],
  { allowMissing: true },
);

applyLanguage(DEFAULT_LOCALE);

/** pt-BR by default, English on request; the service answers in the same language (Accept-Language). */
export const i18nProvider: I18nProvider = {
  ...polyglot,
  changeLocale: async (locale: string, options?: unknown) => {
    await polyglot.changeLocale(locale, options);
    applyLanguage(locale);
  },
};
