import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The request's `Idempotency-Key` header. A decorator of its own rather than `@Headers('idempotency-key')`,
 * which Swagger would list as a second, required header next to the optional one the route documents.
 */
export const IdempotencyKey = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string | undefined => {
    const value = context.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key'];
    return Array.isArray(value) ? value[0] : value;
  },
);
