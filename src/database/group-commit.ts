import DataLoader from 'dataloader';
import { types } from 'node:util';

export interface GroupCommitOptions {
  /** Largest batch. */
  maxBatchSize: number;
  /** Most batches in flight at once. */
  parallel?: number;
  /**
   * While a batch is in flight, another starts only once this many calls wait: a trickle of calls keeps
   * going out together (fewest round trips), a burst gets more batches at once (least waiting).
   */
  startAnotherAt?: number;
}

export interface GroupCommit<K, V> {
  load(key: K): Promise<V>;
}

/** One call's outcome, as the loader hands it over: the call settles from it (see groupCommit). */
type Settled<V> = { value: V } | { error: unknown };

/**
 * Calls made while a batch is in flight wait, then go together in the next one: many callers share one round
 * trip or one transaction (group commit). Alone, a call goes out at once (after the current turn of the event
 * loop); under load the batches grow by themselves. Nothing is cached: every call reads or writes.
 */
export function groupCommit<K, V>(
  run: (keys: readonly K[]) => Promise<(V | Error)[]>,
  { maxBatchSize, parallel = 1, startAnotherAt = 1 }: GroupCommitOptions,
): GroupCommit<K, V> {
  let running = 0;
  /** Calls since the last batch started: they make up the batch that waits. */
  let waitingCalls = 0;
  const waiting: (() => void)[] = [];
  const start = (dispatch: () => void) => {
    running++;
    waitingCalls = 0;
    setImmediate(dispatch);
  };
  // Each outcome travels wrapped and the call settles from it: DataLoader rejects a call only for a value that is
  // an `Error` of its own realm, so an error made by Node's own modules under a sandbox (a test runner's) would
  // otherwise come back as the call's value.
  const loader = new DataLoader<K, Settled<V>, K>(
    (keys) =>
      // Called from a resolved promise: a `run` that throws before returning one still ends its batch.
      Promise.resolve(keys)
        .then(run)
        .then((outcomes) =>
          outcomes.map((outcome): Settled<V> =>
            outcome instanceof Error || types.isNativeError(outcome)
              ? { error: outcome }
              : { value: outcome },
          ),
        )
        .finally(() => {
          running--;
          const next = waiting.shift();
          if (next) start(next);
        }),
    {
      cache: false,
      maxBatchSize,
      batchScheduleFn: (dispatch) => (running === 0 ? start(dispatch) : waiting.push(dispatch)),
    },
  );
  return {
    async load(key: K): Promise<V> {
      waitingCalls++;
      const result = loader.load(key);
      if (waiting.length > 0 && running < parallel && waitingCalls >= startAnotherAt) {
        start(waiting.shift() as () => void);
      }
      const settled = await result;
      if ('error' in settled) throw settled.error;
      return settled.value;
    },
  };
}
