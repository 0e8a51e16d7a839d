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

  it('agrees with the rule written out plainly, on valid CPFs and on every one-digit change of them', () => {
    const plainly = (cpf: string) => {
      if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
      const digits = cpf.split('').map(Number);
      return [9, 10].every((length) => {
        let sum = 0;
        for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i);
        return ((sum * 10) % 11) % 10 === digits[length];
      });
    };
    for (let base = 0; base < 1_000_000_000; base += 7_654_321) {
      const valid = cpfFromBase(base);
      for (let at = 0; at < 11; at++) {
        for (const digit of '0123456789x/:') {
          const changed = valid.slice(0, at) + digit + valid.slice(at + 1);
          expect(isValidCpf(changed)).toBe(plainly(changed));
        }
      }
    }
    for (const same of [
      '00000000000',
      '99999999999',
      '',
      '1234567890',
      '123456789012',
      '１１１４４４７７７３５',
    ])
      expect(isValidCpf(same)).toBe(plainly(same));
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
