import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createAccount } from './factories/accounts.factory';
import { signIn } from './support/console';
import { entryArgs } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

const SCRIPT = join(__dirname, '..', 'src', 'cli', 'create-operator.ts');

/** `npm run account:create-operator -- ...args`, run from the build when current, else from the sources. */
async function createOperator(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...entryArgs(SCRIPT), ...args], {
      env: process.env,
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const linkIn = (output: string) => /(http\S+#\/set-password\/(\S+))/.exec(output)?.[2] as string;

describe('account:create-operator (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await truncateAll(t.dataSource);
  });
  afterAll(() => t.close());

  it('creates the first operator and prints a password link; run again, a new link replaces it', async () => {
    const first = await createOperator('--email', 'Ops@Example.com', '--name', 'Olga Ops');
    expect(first).toEqual({ code: 0, output: expect.stringContaining('Operator created: ops@example.com') });
    const token = linkIn(first.output);
    const info = await request(t.http).get(`/account/password-links/${token}`).expect(200);
    expect(info.body).toMatchObject({ email: 'ops@example.com', name: 'Olga Ops', purpose: 'invitation' });
    const [entry] = await t.dataSource.query(
      "SELECT actor_type AS actorType, actor_label AS actorLabel FROM audit_entries WHERE action = 'account.invite'",
    );
    expect(entry).toEqual({ actorType: 'admin-token', actorLabel: 'account:create-operator' });

    const again = await createOperator('--email', 'ops@example.com', '--name', 'Olga Ops');
    expect(again).toEqual({ code: 0, output: expect.stringContaining('Operator exists: ops@example.com') });
    await request(t.http).get(`/account/password-links/${token}`).expect(404);
    await request(t.http)
      .post(`/account/password-links/${linkIn(again.output)}`)
      .send({ password: 'the first operator passphrase' })
      .expect(204);
    const session = await signIn(t.http, { email: 'ops@example.com' }, 'the first operator passphrase');
    expect(session.account.role).toBe('operator');
  });

  it('refuses missing or bad arguments, and an e-mail of another role', async () => {
    expect(await createOperator('--name', 'No Mail')).toEqual({
      code: 1,
      output: expect.stringContaining('--email is missing or not valid'),
    });
    expect((await createOperator('--email', 'not-an-email', '--name', 'X')).code).toBe(1);
    const support = await createAccount(t, { role: 'support' });
    expect(await createOperator('--email', support.email, '--name', 'X')).toEqual({
      code: 1,
      output: expect.stringContaining('is a support account, not an operator'),
    });
  });
});
