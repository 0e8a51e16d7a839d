import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IDENTIFIER } from '../../../database/identifier-column';

/**
 * Check-in token look-ups that found nothing, per gym, in the current one-minute window: one row per place,
 * restarted when a new window begins. Kept in the database so the limit holds across every process.
 */
@Entity('token_lookup_failures')
export class TokenLookupFailureEntity {
  @PrimaryColumn({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  @Column({ name: 'window_start', type: 'datetime' })
  windowStart: Date;

  @Column({ type: 'int', unsigned: true })
  failures: number;
}
