/** Strips the punctuation a CPF is usually written with (`.`, `-`, spaces). */
export function normalizeCpf(raw: string): string {
  return raw.replace(/[.\-\s]/g, '');
}

/** True for 11 digits whose two check digits are right and that are not all the same digit. */
export function isValidCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = cpf.split('').map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== digits[length]) return false;
  }
  return true;
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
