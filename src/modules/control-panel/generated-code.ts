import { generateCode } from '../../common/domain/codes';
import { invalidParameter } from '../../common/errors/domain-error';
import { MessageKey } from '../../common/i18n/messages';
import { CodeTakenError } from '../../database/unique-insert';

const ATTEMPTS = 5;

/**
 * Runs `insert` with the given code, or with a generated one that is generated again while it collides.
 * A given code that is taken is `invalid_parameter` with the message `taken` (its `value` is the code).
 */
export async function withCode<T>(
  given: string | null | undefined,
  insert: (code: string) => Promise<T>,
  taken: MessageKey,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await insert(given ?? generateCode());
    } catch (error) {
      if (!(error instanceof CodeTakenError)) throw error;
      if (given != null) throw invalidParameter(taken, { value: given });
      if (attempt >= ATTEMPTS) throw error;
    }
  }
}
