import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomInt } from 'node:crypto';

const CONFIRMATION_TOKEN_BYTES = 32;
/** 32 bytes in base64url are 43 characters; `=` padding, which some clients add, is ignored. */
const CONFIRMATION_TOKEN = /^[A-Za-z0-9_-]{43}={0,2}$/;

/** A new capability token for the confirmation `endpoint`: 32 random bytes, base64url. */
export function generateConfirmationToken(): string {
  return randomBytes(CONFIRMATION_TOKEN_BYTES).toString('base64url');
}

/** What the database keeps of a confirmation token and looks it up by: its SHA-256, hex. */
export function hashConfirmationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of a confirmation path segment, or undefined when it cannot be one we issued. */
export function parseConfirmationToken(segment: string): string | undefined {
  return CONFIRMATION_TOKEN.test(segment) ? segment.replace(/=+$/, '') : undefined;
}

/** The 6-digit tokens members show at the desk; a class so that tests can make them collide. */
@Injectable()
export class CheckInTokenGenerator {
  next(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }
}
