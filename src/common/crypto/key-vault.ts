import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** SHA-256 of a key, hex: what lookups compare. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new random API key with a readable prefix (`plk_` place, `ptk_` partner). */
export function generateApiKey(prefix: 'plk' | 'ptk'): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

/** Whether `key` has the shape of a place's key (generateApiKey('plk')); only a look-up says whose it is. */
export function isPlaceShapedKey(key: string): boolean {
  return key.startsWith('plk_');
}

/**
 * AES-256-GCM sealing of keys at rest, so the panel and GET /partner/plans can show them.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export class KeyVault {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined)
      throw new Error('Unknown sealed key format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** A key as people who may not hold it see it: its prefix, first and last four characters (`plk_3q2x…Lp0d`). */
export function maskApiKey(key: string): string {
  const separator = key.indexOf('_') + 1;
  const body = key.slice(separator);
  if (body.length < 12) return `${key.slice(0, separator)}…`;
  return `${key.slice(0, separator)}${body.slice(0, 4)}…${body.slice(-4)}`;
}
