import { freePort, ServiceProcess } from '../../support/service-process';

/** The admin token of the services these tests start (never a real secret). */
export const ADMIN_TOKEN = 'browser-tests-admin-token';
/** The member API token of those services: the platform's app backend starts check-ins with it. */
export const MEMBER_TOKEN = 'browser-tests-member-token';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/** The real service as a process of its own, with the console it serves, on a database of its own. */
export class ConsoleService {
  private constructor(
    readonly process: ServiceProcess,
    readonly base: string,
    /** The database of this service alone, for a story's setting that no route makes (an ended session). */
    readonly databaseUrl: string,
  ) {}

  static async start(name: string, env: Record<string, string> = {}): Promise<ConsoleService> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const database = new URL(process.env.DATABASE_URL as string);
    database.pathname = `${database.pathname}_${name}`;
    const service = new ServiceProcess({
      PORT: String(port),
      DATABASE_URL: database.toString(),
      QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}_${name}`,
      PUBLIC_BASE_URL: base,
      ADMIN_API_TOKEN: ADMIN_TOKEN,
      MEMBER_API_TOKEN: MEMBER_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      ...env,
    });
    await service.waitUntilListening(90_000);
    return new ConsoleService(service, base, database.toString());
  }

  get consoleUrl(): string {
    return `${this.base}/console/`;
  }

  /** A call with the admin token, as automation makes it (no session, no CSRF token). */
  async admin<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ApiAnswer<T>> {
    return this.call<T>(method, path, body, { authorization: `Bearer ${ADMIN_TOKEN}` });
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiAnswer<T>> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** Asserts a 2xx answer and returns its body. */
  async must<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.admin<T>(method, path, body);
    if (answer.status >= 300) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  /** A check-in a member starts in the platform's app, as its backend sends it to the member API. */
  async memberCheckIn(
    cpf: string,
    placeCode: string,
    planCode?: string,
  ): Promise<{ id: string; token: string }> {
    const answer = await this.call<{ id: string; token: string }>(
      'POST',
      '/member/v1/check_ins',
      {
        type: 'cpf',
        identifier: cpf,
        service_provider_code: placeCode,
        service_provider_plan_code: planCode,
      },
      { authorization: `Bearer ${MEMBER_TOKEN}` },
    );
    if (answer.status !== 201)
      throw new Error(`member check-in answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** A check-in as a gym's system sends it, with the place key in x-api-key. */
  async checkIn(placeApiKey: string, cpf: string): Promise<ApiAnswer> {
    return this.call(
      'POST',
      '/v1/track_usages',
      { data: { type: 'track_usage', attributes: { type: 'cpf', identifier: cpf } } },
      { 'x-api-key': placeApiKey },
    );
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }
}
