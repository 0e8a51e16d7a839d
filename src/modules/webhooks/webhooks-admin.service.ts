import { Inject, Injectable } from '@nestjs/common';
import { maskCpf } from '../../common/domain/cpf';
import { notFound } from '../../common/errors/domain-error';
import { CSV_BATCH, csvLines } from '../../common/http/csv';
import { Page, pageOf, paging } from '../../common/http/paging';
import { maskCpfsInText } from '../../common/logging/logging.module';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ApiKeysRepository } from '../partners/api-keys.repository';
import { AuthenticatedPlace, authenticatedPlace } from '../auth/auth.types';
import { Caller } from '../auth/caller';
import {
  AdminDeliveryDetailRow,
  AdminDeliveryRow,
  DeliveriesAdminRepository,
} from './deliveries-admin.repository';
import { DeliveryHealthRepository } from './delivery-health.repository';
import {
  AdminDeliveriesExportQueryDto,
  AdminDeliveriesQueryDto,
  AdminDeliveryDetailDto,
  AdminDeliveryDto,
} from './dto/webhooks-admin.dto';
import {
  EndpointStateDto,
  AcceptedDto,
  WebhookCreatedResponseDto,
  WebhookDeletedResponseDto,
  WebhookListDto,
  WebhookUpdatedResponseDto,
  WebhookRequestDto,
  WebhookUrlDto,
} from './dto/webhooks.dto';
import { DeliveryStatus } from './entities/webhook-delivery.entity';
import { DELIVERY_ID_PATTERN, endpointState, parseWebhookType } from './webhook-policy';
import { toDeliveryDto, toEndpointStateDto } from './webhooks.mappers';
import { WebhooksService } from './webhooks.service';

const UUID_LENGTH = 36;
/** How far back the attempts log is read for when an endpoint started failing. */
const FAILING_SINCE_LOOKBACK_MS = 30 * 86_400_000;

/** Masks every CPF-looking number in a delivery's payload (`document_number`), for support. */
function maskPayload(value: unknown): unknown {
  if (typeof value === 'string') return /^\d{11}$/.test(value) ? maskCpf(value) : maskCpfsInText(value);
  if (Array.isArray(value)) return value.map(maskPayload);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskPayload(inner)]));
  return value;
}

/**
 * The webhooks of a place and the delivery log, for people in the console: the same rules and answers as
 * `/partner/webhook/*`, reached through a place id within the caller's scope (404 outside it).
 */
@Injectable()
export class WebhooksAdminService {
  constructor(
    private readonly places: ApiKeysRepository,
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesAdminRepository,
    private readonly health: DeliveryHealthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** As `/partner/webhook/get`, and since when each failing endpoint has been failing. */
  async list(caller: Caller, placeId: string): Promise<WebhookListDto> {
    const place = await this.place(caller, placeId);
    const listed = await this.webhooks.list(place);
    const failing = listed.webhooks.filter(
      (webhook) => (webhook.delivery_state?.consecutive_failures ?? 0) > 0,
    );
    const since = await this.health.failingSince(
      failing.map((webhook) => ({
        subscriptionId: webhook.id,
        placeId: place.placeId,
        url: webhook.webhook_url,
      })),
      new Date(Date.now() - FAILING_SINCE_LOOKBACK_MS),
    );
    return {
      webhooks: listed.webhooks.map((webhook) => {
        if (!webhook.delivery_state) return webhook;
        const first = since.get(webhook.id);
        return {
          ...webhook,
          delivery_state: { ...webhook.delivery_state, failing_since: this.time(first ?? null) },
        };
      }),
    };
  }

  async create(caller: Caller, placeId: string, body: WebhookRequestDto): Promise<WebhookCreatedResponseDto> {
    return this.webhooks.create(await this.place(caller, placeId), body, caller.actor);
  }

  /** The type comes from the path; the body gives the new URL. */
  async update(
    caller: Caller,
    placeId: string,
    type: string,
    body: WebhookUrlDto,
  ): Promise<WebhookUpdatedResponseDto> {
    return this.webhooks.update(
      await this.place(caller, placeId),
      { webhook_url: body.webhook_url, webhook_type: parseWebhookType(type) },
      caller.actor,
    );
  }

  async remove(caller: Caller, placeId: string, type: string): Promise<WebhookDeletedResponseDto> {
    return this.webhooks.remove(await this.place(caller, placeId), type, caller.actor);
  }

  async sendTest(caller: Caller, placeId: string, type: string): Promise<AcceptedDto> {
    return this.webhooks.sendTest(await this.place(caller, placeId), type, caller.actor);
  }

  /** Failed first, then newest; a gym account sees its places' deliveries only. */
  async listDeliveries(caller: Caller, query: AdminDeliveriesQueryDto): Promise<Page<AdminDeliveryDto>> {
    const page = paging(query);
    const { rows, total } = await this.deliveries.list(
      {
        status: query.status as DeliveryStatus | undefined,
        failing: query.failing === 'true',
        placeId: query.place_id,
        scope: caller.placeScope,
      },
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => this.deliveryDto(row)),
      page,
      total,
    );
  }

  /** The deliveries the list finds, as CSV lines, newest first. */
  exportDeliveries(caller: Caller, query: AdminDeliveriesExportQueryDto): AsyncGenerator<string> {
    const filter = {
      status: query.status as DeliveryStatus | undefined,
      failing: query.failing === 'true',
      placeId: query.place_id,
      scope: caller.placeScope,
    };
    return csvLines(
      [
        'id',
        'created_at',
        'place_id',
        'place_name',
        'event_id',
        'event_type',
        'url',
        'status',
        'attempts',
        'last_status_code',
        'last_error',
        'last_attempt_at',
        'next_attempt_at',
        'delivered_at',
      ],
      (after: AdminDeliveryRow | undefined) => this.deliveries.exportList(filter, after?.id, CSV_BATCH),
      (row) => {
        const delivery = this.deliveryDto(row);
        return [
          delivery.id,
          delivery.created_at,
          delivery.place_id,
          delivery.place_name,
          delivery.event_id,
          delivery.event_type,
          delivery.url,
          delivery.status,
          delivery.attempts,
          delivery.last_status_code,
          delivery.last_error,
          delivery.last_attempt_at,
          delivery.next_attempt_at,
          delivery.delivered_at,
        ];
      },
    );
  }

  /** The delivery, the event body as sent, and each attempt with the receiver's answer; CPFs masked for support. */
  async getDelivery(caller: Caller, id: string): Promise<AdminDeliveryDetailDto> {
    const delivery = await this.findDelivery(caller, id);
    const attempts = await this.deliveries.attempts(delivery.id);
    const masked = !caller.seesWholeCpfs;
    const payload = JSON.parse(delivery.payload) as Record<string, unknown>;
    const { attempts: _count, ...summary } = this.deliveryDto(delivery);
    return {
      ...summary,
      payload: masked ? (maskPayload(payload) as Record<string, unknown>) : payload,
      request_id: delivery.requestId,
      attempts: attempts.map((attempt) => ({
        number: Number(attempt.number),
        url: attempt.url,
        status_code: attempt.statusCode,
        duration_ms: Number(attempt.durationMs),
        response_body:
          masked && attempt.responseBody !== null
            ? maskCpfsInText(attempt.responseBody)
            : attempt.responseBody,
        error: attempt.error,
        created_at: this.time(attempt.createdAt) as string,
      })),
    };
  }

  /** A new chain of attempts of a delivered or failed delivery (422 while it is still on its way). */
  async redeliver(caller: Caller, id: string): Promise<AcceptedDto> {
    const delivery = await this.findDelivery(caller, id);
    const place = { placeId: delivery.placeId } as AuthenticatedPlace;
    return this.webhooks.redeliver(place, delivery.id, caller.actor);
  }

  private async findDelivery(caller: Caller, id: string): Promise<AdminDeliveryDetailRow> {
    const delivery = DELIVERY_ID_PATTERN.test(id) ? await this.deliveries.find(id) : undefined;
    const reached =
      delivery !== undefined &&
      caller.reachesPlace({ id: delivery.placeId, partnerId: delivery.partnerId ?? Number.NaN });
    if (!reached) throw notFound('webhooks.deliveryNotFound', { id });
    return delivery;
  }

  /** The place as its bearer token would present it, when the caller reaches it. */
  private async place(caller: Caller, id: string): Promise<AuthenticatedPlace> {
    const place = id.length <= UUID_LENGTH ? await this.places.findPlaceById(id) : undefined;
    if (!place || !caller.reachesPlace(place)) throw notFound('controlPanel.placeNotFound', { id });
    return authenticatedPlace(place);
  }

  private time(date: Date | null): string | null {
    return date ? formatInZone(date, this.config.businessTimezone) : null;
  }

  private deliveryDto(row: AdminDeliveryRow): AdminDeliveryDto {
    const { id, ...delivery } = toDeliveryDto(row, this.config.businessTimezone);
    return {
      id,
      place_id: row.placeId,
      place_name: row.placeName,
      ...delivery,
      endpoint_state: this.endpointState(row),
    };
  }

  private endpointState(row: AdminDeliveryRow): EndpointStateDto {
    const view = endpointState(
      row.endpointFailures === null
        ? undefined
        : {
            failures: Number(row.endpointFailures),
            openUntil: row.endpointOpenUntil ? new Date(row.endpointOpenUntil) : null,
            lastError: row.endpointLastError,
            lastFailureAt: row.endpointLastFailureAt ? new Date(row.endpointLastFailureAt) : null,
          },
      this.config.webhookBreakerFailures,
      new Date(),
    );
    return toEndpointStateDto(view, this.config.businessTimezone);
  }
}
