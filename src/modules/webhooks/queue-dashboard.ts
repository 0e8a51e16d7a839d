import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import { buildErrorEnvelope, withRequestId } from '../../common/errors/error-envelope';
import { message, translate } from '../../common/i18n/messages';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SessionAuthenticator } from '../accounts/session-authenticator';
import { WEBHOOK_QUEUE } from './webhooks.constants';

const USER = 'admin';
const BASE_PATH = '/admin/queues';
const READS = new Set(['GET', 'HEAD']);

/**
 * The Bull dashboard for support staff. Basic auth (user `admin`, password ADMIN_API_TOKEN) for automation, or
 * a console session: operators may act on jobs (with the session's CSRF token or the service's own Origin),
 * support may look.
 */
@Injectable()
export class QueueDashboard {
  private readonly adapter = new FastifyAdapter();
  private readonly expected: Buffer;
  /** Requests made with a support session: the dashboard shows them its queues read-only. */
  private readonly supportRequests = new WeakSet<FastifyRequest>();

  constructor(
    @InjectQueue(WEBHOOK_QUEUE) queue: Queue,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionAuthenticator,
  ) {
    this.adapter.setBasePath(BASE_PATH);
    createBullBoard({
      queues: [new BullAdapter(queue, { readOnlyMode: false })],
      serverAdapter: this.adapter,
    });
    this.expected = Buffer.from(`${USER}:${config.adminApiToken}`);
  }

  /** Mounts the dashboard at /admin/queues; the auth hook covers only the dashboard's routes. */
  register(fastify: FastifyInstance): void {
    void fastify.register(
      async (scope) => {
        scope.addHook('onRequest', this.authenticate);
        scope.addHook('onSend', this.readOnlyForSupport);
        await scope.register(this.adapter.registerPlugin());
      },
      { prefix: BASE_PATH },
    );
  }

  private readonly authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const match = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '');
    if (match) {
      const given = Buffer.from(match[1], 'base64');
      if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return;
    } else if (this.sessions.hasSessionCookie(request)) {
      try {
        const { role } = (await this.sessions.authenticate(request)).account;
        if (role === 'support' && READS.has(request.method)) this.supportRequests.add(request);
        if (role === 'operator' || (role === 'support' && READS.has(request.method))) return;
        throw new DomainError('forbidden', message('auth.roleForbidden', { role }));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return this.refuse(reply, request, error);
      }
    }
    await reply
      .code(401)
      .header('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"')
      .send(
        withRequestId(
          buildErrorEnvelope(
            401,
            'invalid_token',
            translate(request.locale, message('auth.dashboardCredentials')),
          ),
          request.id,
        ),
      );
  };

  /**
   * The board's read-only mode is one setting for every viewer; support may only look, so the queues it is
   * sent say read-only and its page shows no actions (the service refuses them anyway).
   */
  private readonly readOnlyForSupport = async (
    request: FastifyRequest,
    _reply: FastifyReply,
    payload: unknown,
  ): Promise<unknown> => {
    if (!this.supportRequests.has(request) || typeof payload !== 'string') return payload;
    if (!request.url.split('?')[0].endsWith('/api/queues')) return payload;
    const body = JSON.parse(payload) as { queues?: { readOnlyMode?: boolean }[] };
    for (const queue of body.queues ?? []) queue.readOnlyMode = true;
    return JSON.stringify(body);
  };

  private async refuse(reply: FastifyReply, request: FastifyRequest, error: DomainError): Promise<void> {
    await reply
      .code(error.status)
      .send(
        withRequestId(
          buildErrorEnvelope(error.status, error.label, translate(request.locale, error.detail)),
          request.id,
        ),
      );
  }
}
