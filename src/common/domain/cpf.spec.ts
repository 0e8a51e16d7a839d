import { cpfFromBase, isValidCpf, maskCpf, normalizeCpf } from './cpf';

describe('cpf', () => {
  it('accepts valid check digits', () => {
    expect(isValidCpf('11144477735')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
  });

  it('rejects wrong check digits, wrong lengths and repeated digits', () => {
    expect(isValidCpf('11144477736')).toBe(false);
    expect(isValidCpf('1114447773')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCpf('1114447773a')).toBe(false);
  });

  it('strips punctuation', () => {
    expect(normalizeCpf('111.444.777-35')).toBe('11144477735');
    expect(normalizeCpf(' 111 444 777 35 ')).toBe('11144477735');
  });

  it('builds valid CPFs from base numbers', () => {
    for (let base = 100000000; base < 100000200; base++) expect(isValidCpf(cpfFromBase(base))).toBe(true);
  });

  it('masks for logs', () => {
    expect(maskCpf('11144477735')).toBe('111.***.***-35');
  });
});
