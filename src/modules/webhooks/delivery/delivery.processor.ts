import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { DELIVER_JOB, DeliverJobData, WEBHOOK_QUEUE } from '../webhooks.constants';
import { DeliveryRunner } from './delivery-runner';

/**
 * Bull's `process` names the worker's blocking Redis connection (`CLIENT SETNAME`, for its worker list) and
 * drops the promise: when that connection closes first (the app closed right after it started, as the e2e suites
 * do: 1 full test run in 2 had a suite fail with "Connection is closed.") the rejection is unhandled, which
 * stops a Node process. The name is only informational, so a failure to set it is logged at debug and nothing
 * else.
 */
export function guardWorkerName(queue: Queue, logger: Pick<Logger, 'debug'>): void {
  const named = queue as Queue & { setWorkerName(): Promise<unknown> };
  const setWorkerName = named.setWorkerName.bind(named);
  named.setWorkerName = () =>
    setWorkerName().catch((error: unknown) =>
      logger.debug(`The webhook worker's Redis connection was not named: ${String(error)}`),
    );
}

/**
 * Thin: each job is a run of one endpoint's attempts (DeliveryRunner), WEBHOOK_WORKERS runs at once per
 * process. A job never retries: the delivery rows decide the next attempts.
 */
@Injectable()
export class DeliveryProcessor implements OnModuleInit {
  private readonly logger = new Logger(DeliveryProcessor.name);

  constructor(
    private readonly runner: DeliveryRunner,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverJobData>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    guardWorkerName(this.queue, this.logger);
    this.queue
      .process(DELIVER_JOB, this.config.webhookWorkers, (job) => this.runner.run(job.data, String(job.id)))
      // Bull's worker loop ends in a rejection when its Redis connection closes (shutdown, Redis gone):
      // handled here, or Node would stop the process on an unhandled rejection.
      .catch((error: Error) =>
        this.logger.warn({ err: error }, 'Webhook worker loop stopped; attempts wait in the database'),
      );
  }
}
