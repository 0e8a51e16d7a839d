import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { Transform } from 'class-transformer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID, in either case. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * A UUID in lowercase, as the service writes every id it makes; any other value unchanged. Ids are stored and
 * compared byte for byte (see IDENTIFIER in src/database), and a UUID reads the same in either case: one a
 * client sends in capitals still finds its row.
 */
export function lowercaseUuid(value: unknown): unknown {
  return isUuid(value) ? value.toLowerCase() : value;
}

/** On a DTO field that takes an id or a list of ids: each UUID in lowercase (see lowercaseUuid). */
export function LowercaseUuids(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    Array.isArray(value) ? value.map(lowercaseUuid) : lowercaseUuid(value),
  );
}

/** Every route parameter named `id` or `…_id` that is a UUID, in lowercase (see lowercaseUuid). */
@Injectable()
export class LowercaseUuidParams implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'param' || !metadata.data) return value;
    return metadata.data === 'id' || metadata.data.endsWith('_id') ? lowercaseUuid(value) : value;
  }
}
