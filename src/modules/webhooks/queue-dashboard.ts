import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WEBHOOK_QUEUE } from './webhooks.constants';

const USER = 'admin';

/** The Bull dashboard for support staff, behind basic auth (user `admin`, password ADMIN_API_TOKEN). */
@Injectable()
export class QueueDashboard {
  readonly basePath = '/admin/queues';
  readonly router: RequestHandler;
  private readonly expected: Buffer;

  constructor(@InjectQueue(WEBHOOK_QUEUE) queue: Queue, @Inject(APP_CONFIG) config: AppConfig) {
    const adapter = new ExpressAdapter();
    adapter.setBasePath(this.basePath);
    createBullBoard({ queues: [new BullAdapter(queue, { readOnlyMode: false })], serverAdapter: adapter });
    this.router = adapter.getRouter() as RequestHandler;
    this.expected = Buffer.from(`${USER}:${config.adminApiToken}`);
  }

  readonly basicAuth = (req: Request, res: Response, next: NextFunction): void => {
    const match = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const given = match ? Buffer.from(match[1], 'base64') : Buffer.alloc(0);
    if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"');
    res.status(401).json({
      errors: [
        {
          status: '401',
          title: 'Unauthorized',
          label: 'invalid_token',
          detail: 'The queue dashboard needs basic auth: user admin, password ADMIN_API_TOKEN.',
          source: [
            {
              label: 'invalid_token',
              message: 'The queue dashboard needs basic auth: user admin, password ADMIN_API_TOKEN.',
            },
          ],
        },
      ],
    });
  };
}
