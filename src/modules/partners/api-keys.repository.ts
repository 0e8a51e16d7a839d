import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface PlaceKeyRow {
  id: string;
  code: string;
  name: string;
  active: boolean;
  partnerId: number;
  keyVersion: number;
  partnerKeyVersion: number;
}

export interface PartnerKeyRow {
  id: number;
  name: string;
  apiKeyCiphertext: string;
  keyVersion: number;
}

const PLACE_COLUMNS = `p.id, p.code, p.name, p.active, p.partner_id AS partnerId, p.key_version AS keyVersion,
  pt.key_version AS partnerKeyVersion`;

/** The lean look-ups of places and partners by API key (or id) that authentication runs on every request. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findPlaceByKeyHash(hash: string): Promise<PlaceKeyRow | undefined> {
    const rows: PlaceKeyRow[] = await this.dataSource.query(
      `SELECT ${PLACE_COLUMNS} FROM places p JOIN partners pt ON pt.id = p.partner_id WHERE p.api_key_hash = ?`,
      [hash],
    );
    return rows[0] && { ...rows[0], active: Boolean(rows[0].active) };
  }

  async findPlaceById(id: string): Promise<PlaceKeyRow | undefined> {
    const rows: PlaceKeyRow[] = await this.dataSource.query(
      `SELECT ${PLACE_COLUMNS} FROM places p JOIN partners pt ON pt.id = p.partner_id WHERE p.id = ?`,
      [id],
    );
    return rows[0] && { ...rows[0], active: Boolean(rows[0].active) };
  }

  async findPartnerByKeyHash(hash: string): Promise<PartnerKeyRow | undefined> {
    const rows: PartnerKeyRow[] = await this.dataSource.query(
      `SELECT id, name, api_key_ciphertext AS apiKeyCiphertext, key_version AS keyVersion
       FROM partners WHERE api_key_hash = ?`,
      [hash],
    );
    return rows[0];
  }
}
