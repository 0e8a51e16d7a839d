import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Locale, negotiateLocale } from './locale';

declare module 'fastify' {
  interface FastifyRequest {
    /** The reader's language, from `Accept-Language`, else DEFAULT_LOCALE; worked out when first read. */
    readonly locale: Locale;
  }
}

export function registerRequestLocale(fastify: FastifyInstance, fallback: Locale): void {
  fastify.decorateRequest('locale', {
    getter(this: FastifyRequest): Locale {
      return negotiateLocale(this.headers['accept-language'], fallback);
    },
  });
}

/** The request's language, for the few answers that carry sentences on success (bulk import's row errors). */
export const RequestLocale = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Locale =>
    context.switchToHttp().getRequest<FastifyRequest>().locale,
);
