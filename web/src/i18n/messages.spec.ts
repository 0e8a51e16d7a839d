import raEnglish from 'ra-language-english';
import en from './en';
import ptBR from './pt-BR';
import raPortuguese from './ra-pt-BR';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

const placeholders = (sentence: string) => [...sentence.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();
const plurals = (sentence: string) => sentence.split('||||').length;

describe.each([
  ['console', en as unknown as Tree, ptBR as unknown as Tree],
  ['react-admin', raEnglish as unknown as Tree, raPortuguese as unknown as Tree],
])('%s messages', (_name, english, portuguese) => {
  const source = flatten(english);
  const target = flatten(portuguese);

  it('has every English key in Portuguese and no other', () => {
    expect(Object.keys(target).sort()).toEqual(Object.keys(source).sort());
  });

  it('keeps the placeholders and plural forms of each sentence', () => {
    for (const key of Object.keys(source)) {
      expect({ key, placeholders: placeholders(target[key] ?? '') }).toEqual({
        key,
        placeholders: placeholders(source[key]),
      });
      expect({ key, plurals: plurals(target[key] ?? '') }).toEqual({ key, plurals: plurals(source[key]) });
    }
  });

  it('is translated, not copied', () => {
    const copied = Object.keys(source).filter(
      (key) => source[key] === target[key] && /[a-z]{4,} [a-z]{3,}/i.test(source[key]),
    );
    expect(copied).toEqual([]);
  });
});
