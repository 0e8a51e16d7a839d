import { Injectable } from '@nestjs/common';
import { generateApiKey, hashKey, KeyVault } from '../../common/crypto/key-vault';
import { notFound } from '../../common/errors/domain-error';
import { PlaceKeyCache } from '../auth/place-key-cache';
import { PartnerEntity } from '../partners/entities/partner.entity';
import { toPartnerDto, toPlaceDto } from './control-panel.mappers';
import { ControlPanelRepository } from './control-panel.repository';
import { CreatePartnerDto, PartnerDetailDto, PartnerDto, PartnerKeyDto } from './dto/partners.dto';

/** Partners (chains) and their keys. */
@Injectable()
export class PartnersAdminService {
  constructor(
    private readonly repository: ControlPanelRepository,
    private readonly vault: KeyVault,
    private readonly keyCache: PlaceKeyCache,
  ) {}

  async createPartner(body: CreatePartnerDto): Promise<PartnerDto> {
    const key = generateApiKey('ptk');
    const partner = await this.repository.insertPartner({
      name: body.name.trim(),
      apiKeyHash: hashKey(key),
      apiKeyCiphertext: this.vault.seal(key),
    });
    return toPartnerDto(partner, key);
  }

  async getPartner(id: string): Promise<PartnerDetailDto> {
    const partner = await this.findPartner(id);
    const places = await this.repository.placesOfPartner(partner.id);
    return {
      ...toPartnerDto(partner, this.vault.open(partner.apiKeyCiphertext)),
      places: places.map((place) => toPlaceDto(place, this.vault.open(place.apiKeyCiphertext))),
    };
  }

  /** The old key stops at once: its hash no longer matches, and the version in old tokens is stale. */
  async rotatePartnerKey(id: string): Promise<PartnerKeyDto> {
    const partner = await this.findPartner(id);
    const key = generateApiKey('ptk');
    await this.repository.rotatePartnerKey(partner.id, hashKey(key), this.vault.seal(key));
    this.keyCache.invalidatePartner(partner.id);
    return { partner_api_key: key };
  }

  private async findPartner(id: string): Promise<PartnerEntity> {
    const partner = await this.repository.findPartner(id);
    if (!partner) throw notFound('controlPanel.partnerNotFound', { id });
    return partner;
  }
}
