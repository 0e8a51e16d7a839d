import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';

/** A gym chain or integrator; holds the `partner_api_key` shared by its places. */
@Entity('partners')
export class PartnerEntity extends Timestamped {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'api_key_hash', type: 'char', length: 64, unique: true })
  apiKeyHash: string;

  @Column({ name: 'api_key_ciphertext', type: 'varchar', length: 255 })
  apiKeyCiphertext: string;

  /** Bumped on rotation so that tokens issued with the old key stop working too. */
  @Column({ name: 'key_version', type: 'int', unsigned: true, default: 1 })
  keyVersion: number;
}
