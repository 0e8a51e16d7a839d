import { getQueueToken } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { Queue } from 'bull';
import { WEBHOOK_QUEUE } from '../webhooks/webhooks.constants';

const PING_TIMEOUT_MS = 1000;

/**
 * The webhook queue's Redis: `up` when its connection is ready and answers PING within a second, `down` with the
 * connection's state otherwise (`connecting`, `reconnecting`...). Never waits on a connection that is not ready.
 */
@Injectable()
export class QueueHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly moduleRef: ModuleRef,
  ) {}

  async check(key: string) {
    const indicator = this.indicators.check(key);
    const queue = this.moduleRef.get<Queue>(getQueueToken(WEBHOOK_QUEUE), { strict: false });
    const connection = queue.client.status;
    if (connection !== 'ready') return indicator.down({ connection });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        queue.client.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer to PING within 1 s')), PING_TIMEOUT_MS);
        }),
      ]);
      return indicator.up({ connection });
    } catch (error) {
      return indicator.down({ connection, message: (error as Error).message });
    } finally {
      clearTimeout(timer);
    }
  }
}
