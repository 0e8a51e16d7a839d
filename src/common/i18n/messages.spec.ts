import { ERROR_LABELS } from '../errors/error-label';
import { LOCALES, negotiateLocale } from './locale';
import { CATALOGS, labelMessage, message, translate } from './messages';

const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((match) => match[1]).sort();

describe('message catalogues', () => {
  const english = CATALOGS.en;

  it.each(LOCALES)('%s has every key, with the placeholders of the English sentence', (locale) => {
    const catalog = CATALOGS[locale];
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(english)) {
      const translated = catalog[key as keyof typeof english];
      expect({ key, text: translated.trim() === '' ? '(empty)' : 'ok' }).toEqual({ key, text: 'ok' });
      expect({ key, placeholders: placeholders(translated) }).toEqual({
        key,
        placeholders: placeholders(text),
      });
    }
  });

  it.each(LOCALES)('every label has its own sentence in %s', (locale) => {
    for (const label of ERROR_LABELS) {
      const sentence = translate(locale, labelMessage(label));
      expect({ label, translated: sentence !== `label.${label}` && sentence.length > 0 }).toEqual({
        label,
        translated: true,
      });
    }
  });

  it('fills in the values in the reader language', () => {
    const refusal = message('checkIn.alreadyUsed', { at: '07:02', retry: '08:32' });
    expect(translate('en', refusal)).toBe(
      'A check-in at this gym was recorded at 07:02; try again after 08:32.',
    );
    expect(translate('pt-BR', refusal)).toBe(
      'Um check-in nesta academia foi registrado às 07:02; tente de novo depois das 08:32.',
    );
    expect(translate('es', refusal)).toBe(
      'Se registró un check-in en este gimnasio a las 07:02; reintente después de las 08:32.',
    );
  });

  it('leaves values as given, with no HTML escaping', () => {
    expect(translate('en', message('field.required', { field: '<data>&"x"' }))).toBe(
      '<data>&"x" is required',
    );
  });
});

describe('negotiateLocale', () => {
  it.each([
    [undefined, 'pt-BR'],
    ['', 'pt-BR'],
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['es-419', 'es'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['fr-FR, es;q=0.5', 'es'],
    ['fr', 'pt-BR'],
    ['de;q=1, en;q=0.2, es;q=0.8', 'es'],
    ['*', 'pt-BR'],
    ['not a header;;;', 'pt-BR'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateLocale(header, 'pt-BR')).toBe(expected);
  });

  it('falls back to the configured default', () => {
    expect(negotiateLocale('fr', 'en')).toBe('en');
  });
});
