import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorFunction,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { QueueHealthIndicator } from './queue-health.indicator';

/**
 * Liveness says the process answers (restart it when it does not); readiness names each dependency's state
 * (`database`, `queue`) and is 503 while one is down, so a balancer sends traffic elsewhere. The answers are
 * Terminus's own body (`status`, `info`, `error`, `details`), not the error envelope.
 */
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly queue: QueueHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: the process answers; checks no dependency' })
  checkLiveness() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: database and queue (Redis) reachable; 503 naming what is down' })
  checkReadiness(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.checkDependencies(reply);
  }

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'Same as /health/ready' })
  check(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.checkDependencies(reply);
  }

  private async checkDependencies(reply: FastifyReply) {
    const checks: HealthIndicatorFunction[] = [
      () => this.database.pingCheck('database', { timeout: 2000 }),
      () => this.queue.check('queue'),
    ];
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      void reply.code(503).header('retry-after', '5');
      return error.getResponse();
    }
  }
}
