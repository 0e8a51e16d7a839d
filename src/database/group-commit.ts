import DataLoader from 'dataloader';

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
  const loader = new DataLoader<K, V, K>(
    (keys) =>
      run(keys).finally(() => {
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
    load(key: K): Promise<V> {
      waitingCalls++;
      const result = loader.load(key);
      if (waiting.length > 0 && running < parallel && waitingCalls >= startAnotherAt) {
        start(waiting.shift() as () => void);
      }
      return result;
    },
  };
}
