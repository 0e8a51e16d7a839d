import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PlaceEntity } from '../../partners/entities/place.entity';
import { AccountEntity } from './account.entity';
import { IDENTIFIER } from '../../../database/identifier-column';

/** A place a gym account reaches, for an account scoped to listed places rather than a whole partner. */
@Entity('account_places')
export class AccountPlaceEntity {
  @PrimaryColumn({ name: 'account_id', type: 'int', unsigned: true })
  accountId: number;

  @Index('IDX_account_places_place')
  @PrimaryColumn({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @ManyToOne(() => PlaceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'place_id' })
  place?: PlaceEntity;
}
