import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { invalidParameter } from '../common/errors/domain-error';
import { MessageKey } from '../common/i18n/messages';
import { duplicateKeyName } from './mysql-errors';

/** An insert collided on the `code` unique index; the service retries with a fresh code or refuses a given one. */
export class CodeTakenError extends Error {
  constructor(readonly code: string) {
    super(`code ${code} is already taken`);
    this.name = 'CodeTakenError';
  }
}

/** The property whose unique index a duplicate-key error names, or undefined for any other error. */
export function duplicatedProperty(error: unknown, metadata: EntityMetadata): string | undefined {
  const key = duplicateKeyName(error);
  if (key === undefined) return undefined;
  const unique = [...metadata.indices.filter((index) => index.isUnique), ...metadata.uniques].find(
    (index) => index.name === key,
  );
  return unique?.columns[0]?.propertyName ?? 'unknown';
}

/**
 * Runs an insert of a row with a `code` and translates a unique-index collision: on `code` into
 * `CodeTakenError`, on another column into `invalid_parameter` with `messages[column]`.
 */
export async function insertUnique<E extends ObjectLiteral, T>(
  db: EntityManager,
  entity: EntityTarget<E>,
  code: string,
  insert: () => Promise<T>,
  messages: Record<string, MessageKey> = {},
): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    const property = duplicatedProperty(error, db.connection.getMetadata(entity));
    if (property === undefined) throw error;
    if (property === 'code') throw new CodeTakenError(code);
    throw invalidParameter(messages[property] ?? 'field.taken', { field: property, value: code });
  }
}
