import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { formatInZone } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Caller, PlaceReach } from '../auth/caller';
import { PartnersRepository } from '../partners/partners.repository';
import { MemberCheckInsRepository } from '../member-check-ins/member-check-ins.repository';
import { DeliveryHealthRepository, EndpointHealthRow } from '../webhooks/delivery-health.repository';
import { EndpointStateDto } from '../webhooks/dto/webhooks.dto';
import { endpointState } from '../webhooks/webhook-policy';
import { checkInSeries, lastDays, seriesStart } from './check-in-series';
import { EndpointHealthDto, OverviewDto, OverviewPlaceDto, OverviewQueryDto } from './dto/overview.dto';
import { OverviewRepository } from './overview.repository';

const DAY_MS = 86_400_000;
/** How far back the attempts log is read for when an endpoint started failing. */
const FAILING_SINCE_LOOKBACK_MS = 30 * DAY_MS;
const MAX_ENDPOINTS = 20;
const MAX_PLACES = 50;

/**
 * What the console's home pages show first: check-in answers per hour and per day (visits recorded, refusals by
 * label), delivery health, the endpoints in trouble, member check-ins; for gym accounts, each of their places
 * with today's visits and its webhook. Everything within the caller's scope (docs/console.md says how each
 * figure is computed).
 */
@Injectable()
export class OverviewService {
  constructor(
    private readonly repository: OverviewRepository,
    private readonly partners: PartnersRepository,
    private readonly deliveries: DeliveryHealthRepository,
    private readonly memberCheckIns: MemberCheckInsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async overview(caller: Caller, query: OverviewQueryDto): Promise<OverviewDto> {
    const reach: PlaceReach = { scope: caller.placeScope, placeId: query.place_id };
    const perPlace = !('all' in reach.scope) || reach.placeId !== undefined;
    const places = perPlace ? await this.partners.placesReached(reach, MAX_PLACES) : null;
    if (query.place_id !== undefined && places?.length === 0) {
      throw notFound('controlPanel.placeNotFound', { id: query.place_id });
    }
    const now = this.clock.now();
    const timeZone = this.config.businessTimezone;
    const today = lastDays(now, timeZone, 1)[0].start;
    const dayAgo = new Date(now.getTime() - DAY_MS);
    const [outcomes, visitsToday, counts, waiting, troubled, webhooks, memberCheckIns] = await Promise.all([
      this.repository.outcomesSince(reach, seriesStart(now, timeZone).days),
      this.repository.visitsSince(reach, today),
      this.deliveries.counts(reach, dayAgo),
      this.deliveries.waiting(reach),
      this.deliveries.endpoints(reach, dayAgo, { all: false, limit: MAX_ENDPOINTS }),
      places ? this.deliveries.endpoints(reach, dayAgo, { all: true, limit: MAX_PLACES }) : [],
      this.memberCheckIns.countsSince(
        reach,
        now,
        dayAgo,
        new Date(dayAgo.getTime() - this.config.checkInConfirmationWindowSeconds * 1000),
      ),
    ]);
    const failing = [...troubled, ...webhooks].filter((row) => Number(row.failures ?? 0) > 0);
    const failingSince = await this.deliveries.failingSince(
      failing.map((row) => ({ subscriptionId: row.subscriptionId, placeId: row.placeId, url: row.url })),
      new Date(now.getTime() - FAILING_SINCE_LOOKBACK_MS),
    );
    const state = (row: EndpointHealthRow) => this.endpointState(row, failingSince, now);
    const oldest = waiting.oldestCreatedAt ? new Date(waiting.oldestCreatedAt) : null;
    const series = checkInSeries(outcomes, now, timeZone);
    return {
      generated_at: this.time(now),
      check_ins: {
        ...series,
        visits_today: [...visitsToday.values()].reduce((sum, visits) => sum + visits, 0),
      },
      deliveries: {
        ...counts,
        waiting: waiting.waiting,
        retrying: waiting.retrying,
        oldest_waiting_since: oldest ? this.time(oldest) : null,
        oldest_waiting_seconds: oldest
          ? Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000))
          : null,
      },
      endpoints: troubled.map((row) => this.endpointHealth(row, state(row))),
      member_check_ins: memberCheckIns,
      places:
        places?.map((place): OverviewPlaceDto => {
          const webhook = webhooks.find((row) => row.placeId === place.id);
          return {
            id: place.id,
            name: place.name,
            code: place.code,
            active: Boolean(Number(place.active)),
            visits_today: visitsToday.get(place.id) ?? 0,
            webhook: webhook
              ? {
                  id: webhook.subscriptionId,
                  url: webhook.url,
                  active: Boolean(Number(webhook.active)),
                  delivery_state: state(webhook),
                }
              : null,
          };
        }) ?? null,
    };
  }

  private endpointHealth(row: EndpointHealthRow, deliveryState: EndpointStateDto): EndpointHealthDto {
    const deliveries = Number(row.deliveries);
    const failed = Number(row.failed);
    const retrying = Number(row.retrying);
    return {
      webhook_id: row.subscriptionId,
      place_id: row.placeId,
      place_name: row.placeName,
      place_code: row.placeCode,
      url: row.url,
      active: Boolean(Number(row.active)),
      delivery_state: deliveryState,
      deliveries,
      failed,
      retrying,
      failure_rate: deliveries === 0 ? 0 : Math.round(((failed + retrying) / deliveries) * 1000) / 1000,
    };
  }

  private endpointState(
    row: EndpointHealthRow,
    failingSince: Map<string, Date | null>,
    now: Date,
  ): EndpointStateDto {
    const view = endpointState(
      row.failures === null
        ? undefined
        : {
            failures: Number(row.failures),
            openUntil: row.openUntil ? new Date(row.openUntil) : null,
            lastError: row.lastError,
            lastFailureAt: row.lastFailureAt ? new Date(row.lastFailureAt) : null,
          },
      this.config.webhookBreakerFailures,
      now,
    );
    const since = view.consecutive_failures > 0 ? failingSince.get(row.subscriptionId) : null;
    return {
      ...view,
      open_until: view.open_until ? this.time(view.open_until) : null,
      last_failure_at: view.last_failure_at ? this.time(view.last_failure_at) : null,
      failing_since: since ? this.time(new Date(since)) : null,
    };
  }

  private time(date: Date): string {
    return formatInZone(date, this.config.businessTimezone);
  }
}
