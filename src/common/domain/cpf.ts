/** Strips the punctuation a CPF is usually written with (`.`, `-`, spaces). */
export function normalizeCpf(raw: string): string {
  return raw.replace(/[.\-\s]/g, '');
}

/**
 * True for 11 digits whose two check digits are right and that are not all the same digit. Every check-in
 * request asks it: read digit by digit, without the arrays a split would allocate.
 */
export function isValidCpf(cpf: string): boolean {
  if (cpf.length !== 11) return false;
  const first = cpf.charCodeAt(0);
  let allSame = true;
  // The weighted sums of the first check digit (nine digits, weights 10 to 2) and of the second (ten, 11 to 2).
  let sumFirst = 0;
  let sumSecond = 0;
  for (let i = 0; i < 11; i++) {
    const code = cpf.charCodeAt(i);
    if (code < 48 || code > 57) return false;
    if (code !== first) allSame = false;
    const digit = code - 48;
    if (i < 9) sumFirst += digit * (10 - i);
    if (i < 10) sumSecond += digit * (11 - i);
  }
  if (allSame) return false;
  return (
    ((sumFirst * 10) % 11) % 10 === cpf.charCodeAt(9) - 48 &&
    ((sumSecond * 10) % 11) % 10 === cpf.charCodeAt(10) - 48
  );
}

/** Masks a CPF for logs: `111.***.***-35`. */
export function maskCpf(cpf: string): string {
  return cpf.length === 11 ? `${cpf.slice(0, 3)}.***.***-${cpf.slice(9)}` : '***';
}

/** A valid CPF built from a 9-digit base number (used by the demo seed and tests). */
export function cpfFromBase(base: number): string {
  const digits = String(base).padStart(9, '0').split('').map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i);
    digits.push(((sum * 10) % 11) % 10);
  }
  return digits.join('');
}
