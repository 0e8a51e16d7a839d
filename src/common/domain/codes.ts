import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const CODE_PATTERN = /^[A-Z0-9]{8}$/;

/** An 8-character upper-case alphanumeric code, as used for places, plans and beneficiaries. */
export function generateCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
