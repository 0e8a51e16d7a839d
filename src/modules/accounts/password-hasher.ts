import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id with OWASP's baseline cost (19 MiB, 2 passes, 1 lane): about 20 ms a hash on this kind of machine. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Password hashes (argon2id, PHC strings). */
@Injectable()
export class PasswordHasher {
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  /** False for a wrong password or a hash it cannot read. */
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the time of a verification, so an unknown e-mail answers as slowly as a wrong password. */
  async verifyNothing(password: string): Promise<false> {
    this.decoy ??= this.hash('decoy password that matches nothing');
    await this.verify(await this.decoy, password);
    return false;
  }

  /** True when a stored hash was made with weaker parameters than today's. */
  needsRehash(hash: string): boolean {
    try {
      return argon2.needsRehash(hash, OPTIONS);
    } catch {
      return false;
    }
  }
}
