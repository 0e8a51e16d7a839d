import DataLoader from 'dataloader';

/**
 * A DataLoader that runs at most `parallel` batches at a time: calls made while they are all in flight wait,
 * then go together in the next one. Alone, a call goes out at once (after the current turn of the event
 * loop); under load the batches grow by themselves, so many callers share one round trip or one transaction
 * (group commit). Nothing is cached: every call reads or writes.
 */
export function groupCommit<K, V>(
  run: (keys: readonly K[]) => Promise<(V | Error)[]>,
  maxBatchSize: number,
  parallel = 1,
): DataLoader<K, V, K> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const start = (dispatch: () => void) => {
    running++;
    setImmediate(dispatch);
  };
  return new DataLoader<K, V, K>(
    (keys) =>
      run(keys).finally(() => {
        running--;
        const next = waiting.shift();
        if (next) start(next);
      }),
    {
      cache: false,
      maxBatchSize,
      batchScheduleFn: (dispatch) => (running < parallel ? start(dispatch) : waiting.push(dispatch)),
    },
  );
}
