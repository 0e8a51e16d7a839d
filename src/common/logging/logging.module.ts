import { Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const CPF_IN_TEXT = /\b(\d{3})\.?\d{3}\.?\d{3}-?(\d{2})\b/g;

/** Masks CPFs wherever they appear in a logged URL (e.g. PATCH /admin/beneficiaries/:cpf). */
export function maskCpfsInText(text: string): string {
  return text.replace(CPF_IN_TEXT, '$1.***.***-$2');
}

/** Pino logs with a request id on every line; credentials redacted, CPFs masked, bodies never logged. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: (req: IncomingMessage, res: ServerResponse) => {
            const given = req.headers['x-request-id'];
            const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
            res.setHeader('x-request-id', id);
            return id;
          },
          redact: {
            paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
            censor: '[redacted]',
          },
          serializers: {
            req: (req: { id: string; method: string; url: string }) => ({
              id: req.id,
              method: req.method,
              url: maskCpfsInText(req.url),
            }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          },
          customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
            err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug',
          quietReqLogger: true,
        },
      }),
    }),
  ],
})
export class LoggingModule {}
