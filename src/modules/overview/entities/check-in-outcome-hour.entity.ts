import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { IDENTIFIER } from '../../../database/identifier-column';

/**
 * How many check-in answers of one kind a place gave in one hour: the overview's charts read these instead of
 * the visits table, and refusals (which leave no row anywhere else) are counted here too. Written by
 * CheckInTally off the request path, a few rows every few seconds; see docs/console.md.
 */
@Entity('check_in_outcome_hours')
@Index('IDX_check_in_outcome_hours_place', ['placeId', 'hour'])
export class CheckInOutcomeHourEntity {
  /** The start of the hour, UTC. */
  @PrimaryColumn({ type: 'datetime' })
  hour: Date;

  /** The place that answered; '' when none was known (an unknown key, an unknown confirmation token). */
  @PrimaryColumn({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  /** validate, register or confirm. */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  operation: string;

  /** `success` or the error label of the answer. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  outcome: string;

  @Column({ type: 'int', unsigned: true })
  answers: number;
}
