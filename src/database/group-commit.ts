import DataLoader from 'dataloader';

/**
 * A DataLoader that runs one batch at a time: calls made while a batch is in flight wait for it, then go
 * together in the next one. Alone, a call goes out at once (after the current turn of the event loop); under
 * load the batches grow by themselves, so many callers share one round trip or one transaction (group
 * commit). Nothing is cached: every call reads or writes.
 */
export function groupCommit<K, V>(
  run: (keys: readonly K[]) => Promise<(V | Error)[]>,
  maxBatchSize: number,
): DataLoader<K, V, K> {
  let inFlight: Promise<unknown> = Promise.resolve();
  return new DataLoader<K, V, K>(
    (keys) => {
      const batch = run(keys);
      inFlight = batch.catch(() => undefined);
      return batch;
    },
    {
      cache: false,
      maxBatchSize,
      batchScheduleFn: (dispatch) => void inFlight.then(() => setImmediate(dispatch)),
    },
  );
}
