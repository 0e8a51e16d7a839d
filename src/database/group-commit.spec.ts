import { runInNewContext } from 'node:vm';
import { groupCommit } from './group-commit';

describe('groupCommit', () => {
  it('sends a lone call at once, and calls made while a batch is in flight together in the next', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    let blocked = true;
    const loader = groupCommit<number, number>(
      async (keys) => {
        batches.push([...keys]);
        if (blocked) {
          blocked = false;
          await new Promise<void>((resolve) => (release = resolve));
        }
        return keys.map((key) => key * 10);
      },
      { maxBatchSize: 100 },
    );

    const first = loader.load(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([[1]]);
    const waiting = [2, 3, 4].map((key) => loader.load(key));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([[1]]);
    release();

    await expect(first).resolves.toBe(10);
    await expect(Promise.all(waiting)).resolves.toEqual([20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('fails every call of a batch that throws, and goes on with the next batch', async () => {
    let fail = true;
    const loader = groupCommit<string, string>(
      async (keys) => {
        if (fail) {
          fail = false;
          throw new Error('deadlock');
        }
        return keys.map((key) => key.toUpperCase());
      },
      { maxBatchSize: 100 },
    );
    await expect(Promise.all([loader.load('a'), loader.load('b')])).rejects.toThrow('deadlock');
    await expect(loader.load('c')).resolves.toBe('C');
  });

  it('fails the calls of a batch whose run throws before returning a promise, and goes on with the next', async () => {
    let fail = true;
    const loader = groupCommit<number, number>(
      (keys) => {
        if (fail) {
          fail = false;
          throw new Error('thrown at once');
        }
        return Promise.resolve([...keys]);
      },
      { maxBatchSize: 100 },
    );
    await expect(loader.load(1)).rejects.toThrow('thrown at once');
    await expect(loader.load(2)).resolves.toBe(2);
  });

  it('answers each call with its own error when the batch says so', async () => {
    const loader = groupCommit<number, number>(
      async (keys) => keys.map((key) => (key < 0 ? new Error(`bad ${key}`) : key)),
      { maxBatchSize: 100 },
    );
    const [good, bad] = await Promise.allSettled([loader.load(1), loader.load(-1)]);
    expect(good).toEqual({ status: 'fulfilled', value: 1 });
    expect(bad).toMatchObject({ status: 'rejected', reason: new Error('bad -1') });
  });

  it('rejects a call with its error even when the error was made in another realm (a refused connection under jest)', async () => {
    // Node's own modules make their errors outside a test runner's sandbox, as this context does.
    const foreign = runInNewContext(
      "Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })",
    );
    expect(foreign instanceof Error).toBe(false);
    const loader = groupCommit<number, number>(async (keys) => keys.map(() => foreign), {
      maxBatchSize: 100,
    });
    await expect(loader.load(1)).rejects.toBe(foreign);
  });

  it('runs up to `parallel` batches at once', async () => {
    let running = 0;
    let most = 0;
    const loader = groupCommit<number, number>(
      async (keys) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return [...keys];
      },
      { maxBatchSize: 1, parallel: 2 },
    );
    await expect(Promise.all([1, 2, 3, 4, 5].map((key) => loader.load(key)))).resolves.toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(most).toBe(2);
  });

  it('starts another batch beside the one in flight only once enough calls wait', async () => {
    const batches: number[][] = [];
    const releases: (() => void)[] = [];
    const loader = groupCommit<number, number>(
      async (keys) => {
        batches.push([...keys]);
        await new Promise<void>((resolve) => releases.push(resolve));
        return [...keys];
      },
      { maxBatchSize: 100, parallel: 2, startAnotherAt: 3 },
    );
    const tick = () => new Promise((resolve) => setTimeout(resolve, 10));
    const all = [loader.load(1)];
    await tick();
    all.push(loader.load(2), loader.load(3));
    await tick();
    // Two wait: not enough for a second batch in flight.
    expect(batches).toEqual([[1]]);
    all.push(loader.load(4));
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    all.push(loader.load(5), loader.load(6), loader.load(7));
    await tick();
    // Two in flight already: the rest waits for one of them.
    expect(batches).toHaveLength(2);
    releases.forEach((release) => release());
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
    releases.slice(2).forEach((release) => release());
    await expect(Promise.all(all)).resolves.toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('never puts more than the limit in one batch', async () => {
    const sizes: number[] = [];
    const loader = groupCommit<number, number>(
      async (keys) => {
        sizes.push(keys.length);
        return [...keys];
      },
      { maxBatchSize: 3 },
    );
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((key) => loader.load(key)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(7);
  });
});
