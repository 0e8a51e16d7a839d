import { Global, LoggerService, Module } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { maskCpfsInText, maskSecretsInText, maskUrl } from './log-masking';

export { maskCpfsInText } from './log-masking';

/**
 * Drops what a database error carries of the statement (its SQL with the values filled in and its
 * parameters hold CPFs, names and contact details) and masks CPFs and capability tokens in its message
 * ("Duplicate entry '…'", a URL quoted by the HTTP layer).
 */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as Record<string, unknown>;
  for (const field of ['query', 'parameters', 'sql', 'sqlMessage', 'driverError']) delete serialized[field];
  for (const field of ['message', 'stack']) {
    if (typeof serialized[field] === 'string')
      serialized[field] = maskSecretsInText(maskCpfsInText(serialized[field]));
  }
  return serialized;
}

/** A URL logged as `url` (a webhook target) or as the request's `req.url` is masked by the one rule. */
function serializeUrl(url: unknown): unknown {
  return typeof url === 'string' ? maskUrl(url) : url;
}

function serializeRequest(req: unknown): unknown {
  if (typeof req !== 'object' || req === null) return req;
  const { url } = req as { url?: unknown };
  return url === undefined ? req : { ...req, url: serializeUrl(url) };
}

/** The text of every message, whoever wrote it, with capability tokens masked. */
function maskMessages(this: Pino, args: Parameters<pino.LogFn>, write: pino.LogFn): void {
  for (let i = 0; i < args.length; i++) {
    if (typeof args[i] === 'string') (args as unknown[])[i] = maskSecretsInText(args[i] as string);
  }
  write.apply(this, args);
}

/**
 * The process's pino logger: one JSON line per event (a line about a request names it as `requestId`: the
 * request's own line, the exception filter's, each webhook attempt's);
 * credentials and request bodies are never logged, and capability tokens, credential-named query values and
 * CPFs are masked by one rule (log-masking.ts) on every line, at every level.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Pino {
  const options: pino.LoggerOptions = {
    level,
    serializers: { err: serializeError, req: serializeRequest, url: serializeUrl },
    hooks: { logMethod: maskMessages },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** Nest's logger interface over pino: `logger.warn({ err }, 'message')` and `logger.log('message')` both work. */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly pino: Pino) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Nest appends the context (the logger's name) as the last argument. */
  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
      const text = typeof rest[0] === 'string' ? rest[0] : undefined;
      this.pino[level]({ context, ...message }, text);
    } else if (message instanceof Error) {
      this.pino[level]({ context, err: message }, message.message);
    } else {
      // Nest passes a stack trace as the argument before the context of error().
      const stack = typeof rest[0] === 'string' ? rest[0] : undefined;
      this.pino[level]({ context, ...(stack && { stack }) }, String(message));
    }
  }
}

/** The root logger and Nest's logger service over it. */
@Global()
@Module({
  providers: [
    {
      provide: ROOT_LOGGER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createLogger(config.logLevel),
    },
    {
      provide: PinoLoggerService,
      inject: [ROOT_LOGGER],
      useFactory: (root: Pino) => new PinoLoggerService(root),
    },
  ],
  exports: [ROOT_LOGGER, PinoLoggerService],
})
export class LoggingModule {}
