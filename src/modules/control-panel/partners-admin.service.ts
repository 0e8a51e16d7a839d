import { Inject, Injectable } from '@nestjs/common';
import { generateApiKey, hashKey, KeyVault, maskApiKey } from '../../common/crypto/key-vault';
import { notFound } from '../../common/errors/domain-error';
import { Page, pageOf, paging } from '../../common/http/paging';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuditLog } from '../audit/audit-log';
import { Caller } from '../auth/caller';
import { PartnerEntity } from '../partners/entities/partner.entity';
import { toPartnerDto, toPlaceDto } from './control-panel.mappers';
import { PartnersRepository } from '../partners/partners.repository';
import { KeyRotation } from './key-rotation';
import {
  CreatePartnerDto,
  PartnerDetailDto,
  PartnerDto,
  PartnerKeyDto,
  PartnerListItemDto,
  PartnersQueryDto,
  UpdatePartnerDto,
} from './dto/partners.dto';
import { Transactions } from '../../database/transactions';

/** Partners (chains) and their keys. */
@Injectable()
export class PartnersAdminService {
  constructor(
    private readonly repository: PartnersRepository,
    private readonly transactions: Transactions,
    private readonly vault: KeyVault,
    private readonly audit: AuditLog,
    private readonly keys: KeyRotation,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async listPartners(query: PartnersQueryDto): Promise<Page<PartnerListItemDto>> {
    const page = paging(query);
    const { rows, total } = await this.repository.listPartners(
      query.q?.trim() || undefined,
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        places_count: Number(row.placesCount),
        created_at: formatInZone(row.createdAt, this.config.businessTimezone),
      })),
      page,
      total,
    );
  }

  async createPartner(caller: Caller, body: CreatePartnerDto): Promise<PartnerDto> {
    const key = generateApiKey('ptk');
    const partner = await this.transactions.run(async (manager) => {
      const repository = this.repository.in(manager);
      const created = await repository.insertPartner({
        name: body.name.trim(),
        apiKeyHash: hashKey(key),
        apiKeyCiphertext: this.vault.seal(key),
      });
      await this.audit.write(manager, caller.actor, {
        action: 'partner.create',
        targetType: 'partner',
        targetId: created.id,
        details: { name: created.name },
      });
      return created;
    });
    return toPartnerDto(partner, key);
  }

  /** Keys whole for operators, masked for support. */
  async getPartner(caller: Caller, id: string): Promise<PartnerDetailDto> {
    const partner = await this.findPartner(id);
    const places = await this.repository.placesOfPartner(partner.id);
    const key = (sealed: string) => {
      const plain = this.vault.open(sealed);
      return caller.seesWholeKeys ? plain : maskApiKey(plain);
    };
    return {
      ...toPartnerDto(partner, key(partner.apiKeyCiphertext)),
      places: places.map((place) => toPlaceDto(place, key(place.apiKeyCiphertext))),
    };
  }

  /** A new name, everywhere at once (`POST /partner/auth` answers it too); the key stays. */
  async renamePartner(caller: Caller, id: string, body: UpdatePartnerDto): Promise<PartnerDto> {
    const partner = await this.findPartner(id);
    const name = body.name.trim();
    await this.transactions.run(async (manager) => {
      await this.repository.in(manager).renamePartner(partner.id, name);
      await this.audit.write(manager, caller.actor, {
        action: 'partner.update',
        targetType: 'partner',
        targetId: partner.id,
        details: { name, previous_name: partner.name },
      });
    });
    const key = this.vault.open(partner.apiKeyCiphertext);
    return toPartnerDto({ ...partner, name }, caller.seesWholeKeys ? key : maskApiKey(key));
  }

  /**
   * Operators, and a chain account of this partner (anyone else: 404). The old key stops at once: its hash no
   * longer matches, and the version in old tokens is stale.
   */
  async rotatePartnerKey(caller: Caller, id: string): Promise<PartnerKeyDto> {
    const partner = await this.findPartner(id);
    if (!caller.reachesPartnerKey(partner.id)) throw notFound('controlPanel.partnerNotFound', { id });
    return { partner_api_key: await this.keys.rotate(caller, { type: 'partner', id: partner.id }) };
  }

  private async findPartner(id: string): Promise<PartnerEntity> {
    const partner = await this.repository.findPartner(id);
    if (!partner) throw notFound('controlPanel.partnerNotFound', { id });
    return partner;
  }
}
