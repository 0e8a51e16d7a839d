import { Global, LoggerService, Module } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { currentRequestId } from './request-context';

const CPF_IN_TEXT = /\b(\d{3})\.?\d{3}\.?\d{3}-?(\d{2})\b/g;

/** Masks CPFs wherever they appear in a logged URL (e.g. PATCH /admin/beneficiaries/:cpf). */
export function maskCpfsInText(text: string): string {
  return text.replace(CPF_IN_TEXT, '$1.***.***-$2');
}

/**
 * Drops what a database error carries of the statement (its SQL with the values filled in and its
 * parameters hold CPFs, names and contact details) and masks CPFs in its message ("Duplicate entry '…'").
 */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as Record<string, unknown>;
  for (const field of ['query', 'parameters', 'sql', 'sqlMessage', 'driverError']) delete serialized[field];
  for (const field of ['message', 'stack']) {
    if (typeof serialized[field] === 'string') serialized[field] = maskCpfsInText(serialized[field]);
  }
  return serialized;
}

const NO_REQUEST = {};

/** Every line written while serving a request (or a webhook attempt it caused) names the request. */
function requestIdMixin(): object {
  const requestId = currentRequestId();
  return requestId ? { requestId } : NO_REQUEST;
}

/**
 * The process's pino logger: one JSON line per event, with the request id of the request being served;
 * credentials and request bodies are never logged.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Pino {
  const options: pino.LoggerOptions = {
    level,
    mixin: requestIdMixin,
    serializers: { err: serializeError },
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
