import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { buildErrorEnvelope } from '../../common/errors/error-envelope';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WEBHOOK_QUEUE } from './webhooks.constants';

const USER = 'admin';
const BASE_PATH = '/admin/queues';

/** The Bull dashboard for support staff, behind basic auth (user `admin`, password ADMIN_API_TOKEN). */
@Injectable()
export class QueueDashboard {
  private readonly adapter = new FastifyAdapter();
  private readonly expected: Buffer;

  constructor(@InjectQueue(WEBHOOK_QUEUE) queue: Queue, @Inject(APP_CONFIG) config: AppConfig) {
    this.adapter.setBasePath(BASE_PATH);
    createBullBoard({
      queues: [new BullAdapter(queue, { readOnlyMode: false })],
      serverAdapter: this.adapter,
    });
    this.expected = Buffer.from(`${USER}:${config.adminApiToken}`);
  }

  /** Mounts the dashboard at /admin/queues; the basic-auth hook covers only the dashboard's routes. */
  register(fastify: FastifyInstance): void {
    void fastify.register(
      async (scope) => {
        scope.addHook('onRequest', this.basicAuth);
        await scope.register(this.adapter.registerPlugin());
      },
      { prefix: BASE_PATH },
    );
  }

  private readonly basicAuth = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void => {
    const match = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '');
    const given = match ? Buffer.from(match[1], 'base64') : Buffer.alloc(0);
    if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return done();
    void reply
      .code(401)
      .header('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"')
      .send(
        buildErrorEnvelope(
          401,
          'invalid_token',
          'The queue dashboard needs basic auth: user admin, password ADMIN_API_TOKEN.',
        ),
      );
  };
}
