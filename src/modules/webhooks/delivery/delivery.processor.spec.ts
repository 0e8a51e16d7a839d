import Bull from 'bull';
import type { Queue } from 'bull';
import { guardWorkerName } from './delivery.processor';

type Named = { setWorkerName(): Promise<unknown> };

describe('guardWorkerName', () => {
  it("is where Bull's process names its worker: setHandler calls the queue's own setWorkerName", () => {
    const prototype = (Bull as unknown as { prototype: Record<string, unknown> }).prototype;
    expect(typeof prototype.setWorkerName).toBe('function');
    expect(String(prototype.setHandler)).toContain('this.setWorkerName()');
  });

  it('a worker name that cannot be set (its connection closed) resolves and is logged at debug', async () => {
    const queue: Named = { setWorkerName: () => Promise.reject(new Error('Connection is closed.')) };
    const debug = jest.fn();
    guardWorkerName(queue as unknown as Queue, { debug });
    await expect(queue.setWorkerName()).resolves.toBeUndefined();
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('Connection is closed.'));
  });

  it('a name that is set resolves as before, nothing logged', async () => {
    const queue: Named = { setWorkerName: () => Promise.resolve('OK') };
    const debug = jest.fn();
    guardWorkerName(queue as unknown as Queue, { debug });
    await expect(queue.setWorkerName()).resolves.toBe('OK');
    expect(debug).not.toHaveBeenCalled();
  });
});
