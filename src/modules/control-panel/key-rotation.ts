import { Injectable } from '@nestjs/common';
import { generateApiKey, hashKey, KeyVault } from '../../common/crypto/key-vault';
import { AuditLog } from '../audit/audit-log';
import { Caller } from '../auth/caller';
import { PlaceKeyCache } from '../auth/place-key-cache';
import { Transactions } from '../../database/transactions';
import { PartnersRepository } from '../partners/partners.repository';

/** Whose key: a partner's (`ptk_`, covers its places) or a place's (`plk_`). */
export type KeyOwner = { type: 'partner'; id: number } | { type: 'place'; id: string };

/**
 * Replaces a partner's or a place's API key. The old key stops at once: its hash no longer matches, the version
 * in tokens issued with it is stale, and the cached look-ups of its places are forgotten. Audited in the same
 * transaction. Answers the new key, whole, for whoever rotated it.
 */
@Injectable()
export class KeyRotation {
  constructor(
    private readonly repository: PartnersRepository,
    private readonly transactions: Transactions,
    private readonly vault: KeyVault,
    private readonly keyCache: PlaceKeyCache,
    private readonly audit: AuditLog,
  ) {}

  async rotate(caller: Caller, owner: KeyOwner): Promise<string> {
    const key = generateApiKey(owner.type === 'partner' ? 'ptk' : 'plk');
    const [hash, ciphertext] = [hashKey(key), this.vault.seal(key)];
    await this.transactions.run(async (manager) => {
      const repository = this.repository.in(manager);
      if (owner.type === 'partner') await repository.rotatePartnerKey(owner.id, hash, ciphertext);
      else await repository.rotatePlaceKey(owner.id, hash, ciphertext);
      await this.audit.write(manager, caller.actor, {
        action: `${owner.type}.key.rotate`,
        targetType: owner.type,
        targetId: owner.id,
      });
    });
    if (owner.type === 'partner') this.keyCache.invalidatePartner(owner.id);
    else this.keyCache.invalidatePlace(owner.id);
    return key;
  }
}
