import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { buildErrorEnvelope } from '../errors/error-envelope';
import { Locale, negotiateLocale } from '../i18n/locale';
import { labelMessage, translate } from '../i18n/messages';

/**
 * What Fastify refuses before routing, in the contract's envelope instead of Fastify's own JSON: a path
 * parameter longer than any id or token (404 `not_found`: nothing has such a name) and a path that is not
 * valid percent-encoding (400 `malformed_request`). The request's hooks have not run, so the language is
 * worked out here.
 */
export function answerFrameworkError(defaultLocale: Locale) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const locale = negotiateLocale(request.headers['accept-language'], defaultLocale);
    const [status, label] =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? ([404, 'not_found'] as const)
        : ([400, 'malformed_request'] as const);
    void reply
      .code(status)
      .headers({ 'content-language': locale, vary: 'Accept-Language' })
      .send(buildErrorEnvelope(status, label, translate(locale, labelMessage(label))));
  };
}
