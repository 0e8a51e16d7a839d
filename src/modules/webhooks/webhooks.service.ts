import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, Repository } from 'typeorm';
import { KeyVault } from '../../common/crypto/key-vault';
import { DomainError, invalidParameter, notFound } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { formatInZone } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isDuplicateKey } from '../../database/mysql-errors';
import { Transactions } from '../../database/transactions';
import { AuditLog, AuditRecord } from '../audit/audit-log';
import { AuthenticatedPlace } from '../auth/auth.types';
import { AuditActor } from '../auth/caller';
import { PlaceSummaryRepository } from '../partners/place-summary.repository';
import {
  AcceptedDto,
  DeliveriesQueryDto,
  DeliveryPageDto,
  WebhookCreatedResponseDto,
  WebhookDeletedResponseDto,
  WebhookDto,
  WebhookListDto,
  WebhookRequestDto,
  WebhookUpdatedResponseDto,
} from './dto/webhooks.dto';
import { DeliveryStatus } from './entities/webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
import {
  DELIVERY_ID_PATTERN,
  endpointState,
  generateEventId,
  generateWebhookSecret,
  parseWebhookType,
  parseWebhookUrl,
} from './webhook-policy';
import { DeliveryPoller } from './delivery/delivery-poller';
import { TEST_EVENT, WEBHOOK_TYPES, WebhookType, WELLHUB_CHECKIN } from './webhooks.constants';
import { toDeliveryDto, toEndpointStateDto } from './webhooks.mappers';
import { TestEventDto } from './dto/webhook-events.dto';
import { WebhooksRepository } from './webhooks.repository';

const PAGE_SIZE = 50;
const TEST_WINDOW_MS = 60_000;

/**
 * Subscriptions of a place, its delivery log, redeliveries and test events: for its bearer token and, through
 * the control panel, for people. Every change writes an audit entry naming `actor` in its own transaction.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repository: WebhooksRepository,
    private readonly placeSummary: PlaceSummaryRepository,
    private readonly poller: DeliveryPoller,
    private readonly vault: KeyVault,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(
    place: AuthenticatedPlace,
    body: WebhookRequestDto,
    actor: AuditActor,
  ): Promise<WebhookCreatedResponseDto> {
    const { type, url } = this.subscriptionOf(body);
    if (await this.find(place, type)) {
      throw invalidParameter('webhooks.exists', { type });
    }
    const secret = generateWebhookSecret();
    const id = randomUUID();
    const subscription = await this.changeSubscriptions(
      place,
      (subscriptions) =>
        subscriptions.save(
          subscriptions.create({
            id,
            placeId: place.placeId,
            type,
            url,
            secretCiphertext: this.vault.seal(secret),
            active: true,
          }),
        ),
      actor,
      {
        action: 'webhook.create',
        targetType: 'webhook',
        targetId: id,
        details: { place_id: place.placeId, type, url },
      },
    ).catch((error: unknown) => {
      if (isDuplicateKey(error)) {
        throw invalidParameter('webhooks.exists', { type });
      }
      throw error;
    });
    return { status: 'success', code: 201, webhook: { ...this.dto(subscription), secret } };
  }

  async update(
    place: AuthenticatedPlace,
    body: WebhookRequestDto,
    actor: AuditActor,
  ): Promise<WebhookUpdatedResponseDto> {
    const { type, url } = this.subscriptionOf(body);
    const subscription = await this.find(place, type);
    if (!subscription) throw notFound('webhooks.missing', { type });
    const moved = subscription.url !== url;
    subscription.url = url;
    subscription.active = true;
    await this.changeSubscriptions(place, (subscriptions) => subscriptions.save(subscription), actor, {
      action: 'webhook.update',
      targetType: 'webhook',
      targetId: subscription.id,
      details: { place_id: place.placeId, type, url },
    });
    // A new URL is a new endpoint: its circuit breaker starts closed.
    if (moved) await this.repository.resetBreaker(subscription.id);
    return { status: 'success', code: 200, webhook: this.dto(subscription) };
  }

  async remove(
    place: AuthenticatedPlace,
    rawType: string,
    actor: AuditActor,
  ): Promise<WebhookDeletedResponseDto> {
    const type = parseWebhookType(rawType);
    const subscription = await this.find(place, type);
    if (!subscription) throw notFound('webhooks.missing', { type });
    await this.changeSubscriptions(
      place,
      async (subscriptions) => {
        const result = await subscriptions.delete({ id: subscription.id });
        // Deleted meanwhile by another request: nothing to record.
        if (!result.affected) throw notFound('webhooks.missing', { type });
      },
      actor,
      {
        action: 'webhook.delete',
        targetType: 'webhook',
        targetId: subscription.id,
        details: { place_id: place.placeId, type },
      },
    );
    return { status: 'success', code: 200 };
  }

  /** The place's Wellhub-format subscription (the integration-setup routes), if it has one. */
  wellhubSubscription(placeId: string): Promise<WebhookSubscriptionEntity | null> {
    return this.repository.subscriptions.findOne({ where: { placeId, type: WELLHUB_CHECKIN } });
  }

  /**
   * Replaces the place's Wellhub-format subscription with `wanted` (its URL already checked by
   * parseWebhookUrl), or removes it (null); audited as every webhook change. A new URL starts with a closed
   * breaker.
   */
  async replaceWellhubSubscription(
    place: AuthenticatedPlace,
    wanted: { url: string; secret: string; additionalData: boolean } | null,
    actor: AuditActor,
  ): Promise<void> {
    const current = await this.wellhubSubscription(place.placeId);
    if (!wanted) {
      if (!current) return;
      await this.changeSubscriptions(
        place,
        (subscriptions) => subscriptions.delete({ id: current.id }),
        actor,
        {
          action: 'webhook.delete',
          targetType: 'webhook',
          targetId: current.id,
          details: { place_id: place.placeId, type: WELLHUB_CHECKIN },
        },
      );
      return;
    }
    const id = current?.id ?? randomUUID();
    const saved = this.changeSubscriptions(
      place,
      (subscriptions) =>
        subscriptions.save(
          subscriptions.create({
            id,
            placeId: place.placeId,
            type: WELLHUB_CHECKIN,
            url: wanted.url,
            secretCiphertext: this.vault.seal(wanted.secret),
            active: true,
            format: 'wellhub',
            additionalData: wanted.additionalData,
          }),
        ),
      actor,
      {
        action: current ? 'webhook.update' : 'webhook.create',
        targetType: 'webhook',
        targetId: id,
        details: { place_id: place.placeId, type: WELLHUB_CHECKIN, url: wanted.url },
      },
    );
    try {
      await saved;
    } catch (error) {
      // Created meanwhile by another request: replace that one.
      if (!current && isDuplicateKey(error)) return this.replaceWellhubSubscription(place, wanted, actor);
      throw error;
    }
    if (current && current.url !== wanted.url) await this.repository.resetBreaker(id);
  }

  /**
   * A change to the place's subscriptions, the rewrite of its check-in summary and the change's audit entry, in
   * one transaction: check-ins read the summary to decide whether to write an event, so the two must never
   * disagree.
   */
  private changeSubscriptions<T>(
    place: AuthenticatedPlace,
    change: (subscriptions: Repository<WebhookSubscriptionEntity>) => Promise<T>,
    actor: AuditActor,
    record: AuditRecord,
  ): Promise<T> {
    return this.transactions.run(async (manager) => {
      const result = await this.placeSummary.change(place.placeId, manager, () =>
        change(manager.getRepository(WebhookSubscriptionEntity)),
      );
      await this.audit.write(manager, actor, record);
      return result;
    });
  }

  /** The place's `/partner/webhook/*` subscriptions (its Wellhub-format one is the integration-setup routes'). */
  async list(place: AuthenticatedPlace): Promise<WebhookListDto> {
    const subscriptions = await this.repository.subscriptions.find({
      where: { placeId: place.placeId, type: In([...WEBHOOK_TYPES]) },
      order: { createdAt: 'ASC' },
    });
    const breakers = await this.repository.breakersOfPlace(place.placeId);
    const now = this.clock.now();
    return {
      webhooks: subscriptions.map((subscription) => {
        const view = endpointState(breakers.get(subscription.id), this.config.webhookBreakerFailures, now);
        return {
          ...this.dto(subscription),
          delivery_state: toEndpointStateDto(view, this.config.businessTimezone),
        };
      }),
    };
  }

  async deliveries(place: AuthenticatedPlace, query: DeliveriesQueryDto): Promise<DeliveryPageDto> {
    const page = Number(query.page ?? 1);
    const { rows, total } = await this.repository.deliveryLog(
      place.placeId,
      query.status as DeliveryStatus | undefined,
      (page - 1) * PAGE_SIZE,
      PAGE_SIZE,
    );
    return {
      data: rows.map((row) => toDeliveryDto(row, this.config.businessTimezone)),
      page,
      page_size: PAGE_SIZE,
      total,
    };
  }

  async redeliver(place: AuthenticatedPlace, deliveryId: string, actor: AuditActor): Promise<AcceptedDto> {
    if (!DELIVERY_ID_PATTERN.test(deliveryId))
      throw notFound('webhooks.deliveryNotFound', { id: deliveryId });
    await this.transactions.run(async (manager) => {
      const outcome = await this.repository.requeue(place.placeId, deliveryId, this.clock.now(), manager);
      if (outcome === 'missing') throw notFound('webhooks.deliveryNotFound', { id: deliveryId });
      if (outcome === 'busy') {
        throw invalidParameter('webhooks.deliveryBusy', { id: deliveryId });
      }
      await this.audit.write(manager, actor, {
        action: 'delivery.redeliver',
        targetType: 'delivery',
        targetId: deliveryId,
        details: { place_id: place.placeId },
      });
    });
    // Its event id alone: the row carries the event's body too.
    const delivery = await this.repository.deliveries.findOneOrFail({
      where: { id: deliveryId },
      select: { id: true, eventId: true },
    });
    void this.poller.tick();
    return { status: 'accepted', code: 202, delivery_id: deliveryId, event_id: delivery.eventId };
  }

  async sendTest(place: AuthenticatedPlace, rawType: string, actor: AuditActor): Promise<AcceptedDto> {
    const type = parseWebhookType(rawType);
    const subscription = await this.find(place, type);
    if (!subscription) throw notFound('webhooks.missing', { type });
    const now = this.clock.now();
    const id = generateEventId();
    const payload: TestEventDto = {
      id,
      type: TEST_EVENT,
      created_at: formatInZone(now, this.config.businessTimezone),
      place: { place: place.placeId, name: place.placeName, code: place.placeCode },
    };
    const deliveryId = await this.transactions.run(async (manager) => {
      await this.assertTestAllowed(manager, subscription, now);
      const created = await this.repository.insertEvent(manager, {
        id,
        placeId: place.placeId,
        type: TEST_EVENT,
        payload: JSON.stringify(payload),
        createdAt: now,
        subscriptionId: subscription.id,
        url: subscription.url,
        requestId: actor.requestId,
      });
      await this.audit.write(manager, actor, {
        action: 'webhook.test',
        targetType: 'webhook',
        targetId: subscription.id,
        details: { place_id: place.placeId, type, event_id: id, delivery_id: created },
      });
      return created;
    });
    void this.poller.tick();
    return { status: 'accepted', code: 202, delivery_id: deliveryId, event_id: id };
  }

  /**
   * WEBHOOK_TEST_EVENTS_PER_MINUTE per place over a sliding minute: past it, 429 `rate_limited` with
   * `Retry-After` (when the oldest test event of the window leaves it). Test events share the endpoint's
   * queue share anyway; the limit keeps one token from filling the outbox with them.
   */
  private async assertTestAllowed(
    manager: EntityManager,
    subscription: WebhookSubscriptionEntity,
    now: Date,
  ): Promise<void> {
    const recent = await this.repository.testEventsSince(
      manager,
      subscription.id,
      subscription.placeId,
      new Date(now.getTime() - TEST_WINDOW_MS),
    );
    const limit = this.config.webhookTestEventsPerMinute;
    if (recent.length < limit) return;
    const frees = recent[recent.length - limit].getTime() + TEST_WINDOW_MS;
    const seconds = Math.max(1, Math.ceil((frees - now.getTime()) / 1000));
    throw new DomainError('rate_limited', message('webhooks.testEventsLimited', { seconds }), {
      headers: { 'Retry-After': String(seconds) },
    });
  }

  private subscriptionOf(body: WebhookRequestDto): { type: WebhookType; url: string } {
    return {
      type: body.webhook_type,
      url: parseWebhookUrl(body.webhook_url, this.config.webhookAllowPrivateNetworks),
    };
  }

  private find(place: AuthenticatedPlace, type: WebhookType): Promise<WebhookSubscriptionEntity | null> {
    return this.repository.subscriptions.findOne({ where: { placeId: place.placeId, type } });
  }

  private dto(subscription: WebhookSubscriptionEntity): WebhookDto {
    return {
      id: subscription.id,
      webhook_url: subscription.url,
      webhook_type: subscription.type,
      active: subscription.active,
      created_at: formatInZone(subscription.createdAt ?? this.clock.now(), this.config.businessTimezone),
    };
  }
}
