import { load } from 'js-yaml';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// There is no Docker engine where the suite runs: these check the files themselves.
const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  restart?: string;
  environment?: Record<string, string>;
  env_file?: string[];
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

/** Whether a path is left out of the build context by .dockerignore (the patterns this repository uses). */
function ignored(path: string, patterns: string[]): boolean {
  let result = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = negated ? raw.slice(1) : raw;
    const anywhere = pattern.startsWith('**/');
    const name = anywhere ? pattern.slice(3) : pattern;
    const toRegex = (glob: string) =>
      new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`);
    const segments = path.split('/');
    const candidates = anywhere ? segments.map((_, i) => segments.slice(i).join('/')) : [path];
    if (candidates.some((candidate) => toRegex(name).test(candidate))) result = !negated;
  }
  return result;
}

describe('Docker files', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const dockerfile = read('docker/Dockerfile');
  const compose = load(read('docker/compose.yml')) as Compose;
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; workspaces: string[] };

  it('.dockerignore keeps dependencies, builds, secrets and history out of the context, and nothing the build reads', () => {
    const out = [
      'node_modules/x/index.js',
      'web/node_modules/x/index.js',
      '.git/HEAD',
      '.env',
      'docker/.env',
      'web/.env.local',
      'dist/main.js',
      'web/dist/index.html',
      'coverage/lcov.info',
      '.bench/run.json',
      '.screenshots/console/a.png',
      'profile.cpuprofile',
      'scripts/bench.ts',
    ];
    const kept = [
      'package.json',
      'package-lock.json',
      'web/package.json',
      'src/main.ts',
      'src/app.module.ts',
      'src/cli/create-operator.ts',
      'web/index.html',
      'web/src/main.tsx',
      'web/vite.config.ts',
      'web/tsconfig.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'nest-cli.json',
    ];
    expect(out.filter((path) => !ignored(path, patterns))).toEqual([]);
    expect(kept.filter((path) => ignored(path, patterns))).toEqual([]);
  });

  it('the image builds as `npm ci && npm run build` does and runs as start:prod, unprivileged, with a health check', () => {
    const stages = dockerfile
      .replace(/\\\n\s*/g, ' ')
      .split(/^FROM /m)
      .slice(1)
      .map((stage) =>
        stage
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line && !line.startsWith('#')),
      );
    expect(stages).toHaveLength(2);
    const [build, run] = stages;
    const at = (stage: string[], step: string) => stage.findIndex((line) => line === step);
    // The manifests of the root and of every workspace are there before npm ci, the sources after it.
    const ci = at(build, 'RUN npm ci');
    expect(ci).toBeGreaterThan(-1);
    expect(at(build, 'COPY package.json package-lock.json ./')).toBeBetween(0, ci);
    for (const workspace of pkg.workspaces) {
      expect(at(build, `COPY ${workspace}/package.json ./${workspace}/`)).toBeBetween(0, ci);
    }
    expect(at(build, 'COPY . .')).toBeBetween(ci, Infinity);
    expect(at(build, 'RUN npm run build')).toBeBetween(at(build, 'COPY . .'), Infinity);
    expect(pkg.scripts.build).toContain('nest build');

    expect(run).toContain('ENV NODE_ENV=production');
    expect(run).toContain('COPY --from=build /app/dist ./dist');
    const user = run.find((line) => line.startsWith('USER '));
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)\b/);
    expect(at(run, user as string)).toBeLessThan(run.findIndex((line) => line.startsWith('CMD ')));
    expect(run.some((line) => line.startsWith('HEALTHCHECK '))).toBe(true);
    const cmd = JSON.parse(run.find((line) => line.startsWith('CMD '))!.slice(4)) as string[];
    expect(cmd.join(' ')).toBe(pkg.scripts['start:prod']);
    expect(run).toContain('EXPOSE 3000');
  });

  it('compose: health checks everywhere, the service waits for healthy dependencies, restarts, publishes only its port', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['app', 'mariadb', 'redis']);
    for (const [name, service] of Object.entries(services)) {
      expect({ name, restart: service.restart }).toEqual({ name, restart: 'unless-stopped' });
      expect({ name, healthcheck: service.healthcheck?.test?.[0] }).toEqual({ name, healthcheck: 'CMD' });
    }
    expect(services.app.depends_on).toEqual({
      mariadb: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(services.mariadb.ports).toBeUndefined();
    expect(services.redis.ports).toBeUndefined();
    expect(services.app.ports).toEqual(['${APP_ADDRESS:-127.0.0.1}:${APP_PORT:-3000}:3000']);
    expect(services.app.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
  });

  it('compose: MariaDB keeps its data in a named volume and has no empty root password; secrets come from an env file', () => {
    const { services } = compose;
    const mariadb = services.mariadb.environment ?? {};
    expect(Object.keys(mariadb)).not.toContain('MARIADB_ALLOW_EMPTY_ROOT_PASSWORD');
    expect(mariadb.MARIADB_RANDOM_ROOT_PASSWORD).toBe('yes');
    expect(mariadb.MARIADB_PASSWORD).toMatch(/^\$\{DATABASE_PASSWORD:\?/);
    expect(services.mariadb.volumes).toEqual(['mariadb-data:/var/lib/mysql']);
    expect(Object.keys(compose.volumes)).toContain('mariadb-data');

    expect(services.app.env_file).toEqual(['.env']);
    const secrets = ['JWT_SECRET', 'ADMIN_API_TOKEN', 'KEY_ENCRYPTION_SECRET', 'MEMBER_API_TOKEN'];
    expect(Object.keys(services.app.environment ?? {}).filter((name) => secrets.includes(name))).toEqual([]);
    expect(services.app.environment?.DATABASE_URL).toBe(
      'mysql://gym:${DATABASE_PASSWORD}@mariadb:3306/gym_integration',
    );
    // The example names every secret, each left empty so that nothing starts with a value from the repository.
    const example = Object.fromEntries(
      read('docker/env.example')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
    for (const name of [...secrets, 'DATABASE_PASSWORD'])
      expect({ name, value: example[name] }).toEqual({ name, value: '' });
    expect(read('.gitignore').split('\n')).toContain('docker/.env');
  });

  it('the production build is src/ alone: the tools in scripts/ (demo, benchmarks) never reach dist/', () => {
    const build = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    expect(build.include).toEqual(['src/**/*']);
    const sources = (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[]).filter((path) =>
      path.endsWith('.ts'),
    );
    const reachingOut = sources.filter((path) => /from '(\.\.\/)+scripts\//.test(read(join('src', path))));
    expect(reachingOut).toEqual([]);
    expect(pkg.scripts['account:create-operator']).toBe('node dist/cli/create-operator.js');
  });
});

expect.extend({
  toBeBetween(received: number, after: number, before: number) {
    const pass = received > after && received < before;
    return {
      pass,
      message: () => `expected step ${received} to come after step ${after} and before step ${before}`,
    };
  },
});

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      toBeBetween(after: number, before: number): R;
    }
  }
}
