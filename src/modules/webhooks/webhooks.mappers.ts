import { formatInZone } from '../../common/time/business-time';
import { DeliveryDto, EndpointStateDto } from './dto/webhooks.dto';
import { EndpointStateView } from './webhook-policy';
import { DeliveryLogRow } from './webhooks.repository';

const inZone = (date: Date | null, timezone: string) => (date ? formatInZone(date, timezone) : null);

/** A delivery of the log, as the place's token and the control panel both show it; times in `timezone`. */
export function toDeliveryDto(row: DeliveryLogRow, timezone: string): DeliveryDto {
  return {
    id: String(row.id),
    event_id: row.eventId,
    event_type: row.eventType,
    url: row.url,
    status: row.status,
    attempts: Number(row.attempts),
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    last_attempt_at: inZone(row.lastAttemptAt, timezone),
    next_attempt_at: inZone(row.nextAttemptAt, timezone),
    delivered_at: inZone(row.deliveredAt, timezone),
    created_at: inZone(row.createdAt, timezone) as string,
  };
}

/** An endpoint's circuit breaker with its times in `timezone`. */
export function toEndpointStateDto(view: EndpointStateView, timezone: string): EndpointStateDto {
  return {
    ...view,
    open_until: inZone(view.open_until, timezone),
    last_failure_at: inZone(view.last_failure_at, timezone),
  };
}
