import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import { createBatchPool } from '../src/database/data-source';
import { DatabaseServer } from '../src/database/database-server';
import { prepareDatabase } from '../src/database/prepare-database';
import { inBatchTransaction, statement } from '../src/database/statement-batch';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import {
  confirmationPath,
  createMemberCheckIn,
  memberAuth,
  subscribeCheckIns,
} from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { envelope } from './support/http';
import { GaleraCluster } from './support/galera-cluster';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/**
 * The service on a 3-node Galera cluster of the test's own, one instance per node, each writing through its
 * node: every rule holds across nodes, nothing is answered and lost, and a node killed under load costs
 * neither a visit nor a double. The figures of each test are printed (`galera:` lines) for docs/galera.md.
 */
jest.setTimeout(180_000);

const runId = process.env.GYM_TEST_RUN_ID ?? 'local';
const DATABASE = `gym_test_${runId}_galera`;
/** The test's requests stand for many clients, but all come from 127.0.0.1: its connection share is raised. */
const MANY_CLIENTS = { HTTP_MAX_CONNECTIONS_PER_ADDRESS: '2000' };
/** Where the instances that start together migrate a database of their own. */
const FRESH_DATABASE = `${DATABASE}_fresh`;

function outcome(res: request.Response): string {
  if (res.status < 300) return String(res.status);
  return `${res.status} ${res.body?.errors?.[0]?.label ?? ''}`.trim();
}

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const each of outcomes) counts[each] = (counts[each] ?? 0) + 1;
  return counts;
}

function report(name: string, figures: Record<string, unknown>): void {
  console.log(`galera: ${name} ${JSON.stringify(figures)}`);
}

describe('on a 3-node Galera cluster, one instance per node (e2e)', () => {
  let cluster: GaleraCluster;
  /** One instance per node: instances[i] writes through node i + 1. */
  const instances: TestApp[] = [];
  /** Instances without a recent window, through nodes 1 and 2. */
  const loose: TestApp[] = [];
  let receiver: WebhookReceiver;

  /** Waits until every node has applied everything committed so far on any node. */
  async function settle(): Promise<void> {
    for (const node of cluster.nodes) {
      if (!node.pid) continue;
      const connection = await createConnection({ host: '127.0.0.1', port: node.ports.sql, user: 'root' });
      try {
        await connection.query('SET SESSION wsrep_sync_wait = 1');
        await connection.query('SELECT 1');
      } finally {
        await connection.end();
      }
    }
  }

  async function count(sql: string, values: unknown[] = []): Promise<number> {
    const [{ n }] = await instances[0].dataSource.query(sql, values);
    return Number(n);
  }

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    cluster = await GaleraCluster.start(3, process.env.GALERA_WSREP_MODE);
    for (const node of cluster.nodes) {
      instances.push(await createTestApp({ ...MANY_CLIENTS, DATABASE_URL: node.url(DATABASE) }));
    }
    // Every app lives as long as the suite: passport's strategies are the process's, the last app's.
    for (const node of [0, 1]) {
      loose.push(
        await createTestApp({
          ...MANY_CLIENTS,
          DATABASE_URL: cluster.url(node, DATABASE),
          RECENT_CHECKIN_WINDOW_SECONDS: '0',
        }),
      );
    }
  }, 240_000);

  afterAll(async () => {
    for (const instance of [...loose, ...instances]) await instance.close().catch(() => undefined);
    await cluster?.stop();
    await receiver?.stop();
  });

  it('instances started together on a fresh cluster, one per node, all come up and run the migrations once', async () => {
    const started = Date.now();
    const prepared = await Promise.allSettled(
      cluster.nodes.map((node) => prepareDatabase({ databaseUrl: node.url(FRESH_DATABASE) })),
    );
    report('start', {
      prepared: prepared.map((each) => (each.status === 'fulfilled' ? 'ok' : String(each.reason))),
      ms: Date.now() - started,
    });
    expect(prepared.map((each) => each.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const runs: { name: string; n: string }[] = await instances[1].dataSource.query(
      `SELECT name, COUNT(*) AS n FROM \`${FRESH_DATABASE}\`.migrations GROUP BY name`,
    );
    expect(runs.length).toBe(instances[1].dataSource.migrations.length);
    expect(runs.filter((run) => Number(run.n) !== 1)).toEqual([]);
  });

  it('every table has a primary key, so the nodes run with wsrep_mode=REQUIRED_PRIMARY_KEY', async () => {
    const [{ mode }] = await instances[0].dataSource.query('SELECT @@wsrep_mode AS mode');
    expect(mode).toContain('REQUIRED_PRIMARY_KEY');
    const missing: { name: string }[] = await instances[0].dataSource.query(
      `SELECT t.table_name AS name FROM information_schema.tables t
       WHERE t.table_schema = DATABASE() AND t.table_type = 'BASE TABLE' AND NOT EXISTS (
         SELECT 1 FROM information_schema.table_constraints c WHERE c.table_schema = t.table_schema
           AND c.table_name = t.table_name AND c.constraint_type = 'PRIMARY KEY')`,
    );
    expect(missing).toEqual([]);
  });

  it('a transaction aborted by another node never commits part of itself when sent one statement per round trip', async () => {
    // The shape of a check-in: lock and read in one round trip, then three writes and COMMIT. Two nodes, the same
    // rows, no retry: most pairs conflict. Sent as one multi-statement text, an abort between two statements
    // lets the text's later statements run and commit outside the transaction; one per round trip, never.
    await instances[0].dataSource.query(
      `CREATE TABLE split_probe_people (id int NOT NULL PRIMARY KEY, n int NOT NULL DEFAULT 0) ENGINE=InnoDB`,
    );
    await instances[0].dataSource.query(
      `CREATE TABLE split_probe_rows (id varchar(40) NOT NULL PRIMARY KEY, tag varchar(40) NOT NULL,
         INDEX IDX_split_probe_rows_tag (tag)) ENGINE=InnoDB`,
    );
    await instances[0].dataSource.query(
      `INSERT INTO split_probe_people (id) VALUES ${Array.from({ length: 20 }, (_, i) => `(${i + 1})`).join(', ')}`,
    );
    await settle();
    const server = new DatabaseServer(true);
    const pools = [0, 1].map((node) => createBatchPool({ databaseUrl: cluster.url(node, DATABASE) }, server));
    const run = async (oneStatementPerRoundTrip: boolean) => {
      const outcomes = await Promise.all(
        Array.from({ length: 1500 }, async (_, i) => {
          const person = (Math.floor(i / 2) % 20) + 1;
          const tag = `${oneStatementPerRoundTrip ? 'apart' : 'batch'}-${i}`;
          const committed = await inBatchTransaction(
            pools[i % 2],
            async (tx) => {
              await tx.run(
                statement('SELECT id FROM split_probe_people WHERE id = ? FOR UPDATE', [person]),
                statement('SELECT COUNT(*) FROM split_probe_rows', []),
              );
              await tx.commit(
                statement('UPDATE split_probe_people SET n = n + 1 WHERE id = ?', [person]),
                ...['a', 'b', 'c'].map((part) =>
                  statement('INSERT INTO split_probe_rows (id, tag) VALUES (?, ?)', [`${tag}-${part}`, tag]),
                ),
              );
              return true;
            },
            { oneStatementPerRoundTrip },
          ).catch(() => false);
          return { tag, committed };
        }),
      );
      await settle();
      const stored: { tag: string; n: string }[] = await instances[0].dataSource.query(
        'SELECT tag, COUNT(*) AS n FROM split_probe_rows WHERE tag LIKE ? GROUP BY tag',
        [`${oneStatementPerRoundTrip ? 'apart' : 'batch'}-%`],
      );
      const rows = new Map(stored.map((row) => [row.tag, Number(row.n)]));
      return {
        transactions: outcomes.length,
        aborted: outcomes.filter((each) => !each.committed).length,
        partlyCommitted: outcomes.filter((each) => (rows.get(each.tag) ?? 0) % 3 !== 0).length,
        answeredOkButMissing: outcomes.filter((each) => each.committed && rows.get(each.tag) !== 3).length,
        failedButStored: outcomes.filter((each) => !each.committed && rows.has(each.tag)).length,
      };
    };
    try {
      const batched = await run(false);
      const apart = await run(true);
      report('split transactions', { batched, apart });
      expect(apart.aborted).toBeGreaterThan(0);
      expect({ ...apart, transactions: 0, aborted: 0 }).toEqual({
        transactions: 0,
        aborted: 0,
        partlyCommitted: 0,
        answeredOkButMissing: 0,
        failedButStored: 0,
      });
    } finally {
      await Promise.all(pools.map((pool) => new Promise((resolve) => pool.end(resolve))));
    }
  });

  it('racing registers of one person through two nodes record one visit inside the recent window', async () => {
    const [a, b] = instances;
    const gym = await createGym(a);
    const plan = await createBenefitPlan(a.dataSource);
    const people = await Promise.all(
      Array.from({ length: 150 }, () => createBeneficiary(a.dataSource, plan)),
    );
    await settle();
    const register = (t: TestApp, cpf: string) =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier: cpf }));
    const answers = await Promise.all(
      people.flatMap((person) => [register(a, person.cpf), register(b, person.cpf)]),
    );
    await settle();
    const perPerson: { n: string }[] = await a.dataSource.query(
      'SELECT COUNT(*) AS n FROM visits WHERE place_id = ? GROUP BY beneficiary_id',
      [gym.place.id],
    );
    const figures = {
      requests: answers.length,
      answers: tally(answers.map(outcome)),
      people: people.length,
      withVisit: perPerson.length,
      withTwoVisits: perPerson.filter((row) => Number(row.n) > 1).length,
    };
    report('racing registers', figures);
    expect(figures.answers).toEqual({ '204': 150, '422 already_used': 150 });
    expect(figures.withVisit).toBe(150);
    expect(figures.withTwoVisits).toBe(0);
  });

  describe('with no recent window', () => {
    it('a monthly limit of 8 holds against 12 registers per person, 6 through each of two nodes', async () => {
      const [a, b] = loose;
      const gym = await createGym(a);
      const plan = await createBenefitPlan(a.dataSource, { monthlyVisitLimit: 8 });
      const people = await Promise.all(
        Array.from({ length: 40 }, () => createBeneficiary(a.dataSource, plan)),
      );
      await settle();
      const answers = await Promise.all(
        people.flatMap((person) =>
          Array.from({ length: 12 }, (_, i) =>
            request((i % 2 === 0 ? a : b).http)
              .post('/v1/track_usages')
              .set('x-api-key', gym.placeApiKey)
              .send(envelope({ identifier: person.cpf })),
          ),
        ),
      );
      await settle();
      const perPerson: { id: number; n: string }[] = await a.dataSource.query(
        `SELECT b.id, (SELECT COUNT(*) FROM visits v WHERE v.beneficiary_id = b.id) AS n
         FROM beneficiaries b WHERE b.benefit_plan_id = ?`,
        [plan.id],
      );
      const figures = {
        requests: answers.length,
        answers: tally(answers.map(outcome)),
        people: people.length,
        overLimit: perPerson.filter((row) => Number(row.n) > 8).length,
        atLimit: perPerson.filter((row) => Number(row.n) === 8).length,
      };
      report('monthly limit', figures);
      expect(figures.answers).toEqual({ '204': 8 * 40, '422 usage_limit_reached': 4 * 40 });
      expect(figures.overLimit).toBe(0);
      expect(figures.atLimit).toBe(40);
    });
  });

  it('a member check-in confirmed through one node while the CPF is registered through another records one visit', async () => {
    const [a, b] = instances;
    const gym = await createGym(a);
    await subscribeCheckIns(a, gym, receiver.url());
    const plan = await createBenefitPlan(a.dataSource);
    const people = await Promise.all(Array.from({ length: 80 }, () => createBeneficiary(a.dataSource, plan)));
    const paths: string[] = [];
    for (const person of people) {
      const checkIn = await createMemberCheckIn(a, {
        identifier: person.cpf,
        service_provider_code: gym.place.code,
      });
      paths.push(await confirmationPath(a, checkIn.id));
    }
    await settle();
    const answers = await Promise.all(
      people.flatMap((person, i) => [
        request(a.http).post(paths[i]),
        request(b.http)
          .post('/v1/track_usages')
          .set('x-api-key', gym.placeApiKey)
          .send(envelope({ identifier: person.cpf })),
      ]),
    );
    await settle();
    const perPerson: { n: string }[] = await a.dataSource.query(
      'SELECT COUNT(*) AS n FROM visits WHERE place_id = ? GROUP BY beneficiary_id',
      [gym.place.id],
    );
    const [{ validatedWithoutVisit }] = await a.dataSource.query(
      `SELECT COUNT(*) AS validatedWithoutVisit FROM member_check_ins c
       WHERE c.place_id = ? AND c.status = 'validated' AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.id = c.visit_id)`,
      [gym.place.id],
    );
    const figures = {
      requests: answers.length,
      confirmations: tally(answers.filter((_, i) => i % 2 === 0).map(outcome)),
      registers: tally(answers.filter((_, i) => i % 2 === 1).map(outcome)),
      withTwoVisits: perPerson.filter((row) => Number(row.n) > 1).length,
      withVisit: perPerson.length,
      validatedWithoutVisit: Number(validatedWithoutVisit),
    };
    report('confirmations against registers', figures);
    expect(figures.withVisit).toBe(80);
    expect(figures.withTwoVisits).toBe(0);
    expect(figures.validatedWithoutVisit).toBe(0);
    expect(answers.filter((res) => res.status >= 500)).toEqual([]);
    const successes = answers.filter((res) => res.status < 300).length;
    expect(successes).toBe(80);
  });

  it('webhooks: every event once per webhook-id, none without its visit, each written once', async () => {
    const gym = await createGym(instances[0]);
    await subscribeCheckIns(instances[0], gym, receiver.url('/webhooks-test'));
    const plan = await createBenefitPlan(instances[0].dataSource);
    const people = await Promise.all(
      Array.from({ length: 90 }, () => createBeneficiary(instances[0].dataSource, plan)),
    );
    await settle();
    // Each person twice at once, through two different nodes: one visit and one event each.
    const answers = await Promise.all(
      people.flatMap((person, i) =>
        [i % 3, (i + 1) % 3].map((node) =>
          request(instances[node].http)
            .post('/v1/track_usages')
            .set('x-api-key', gym.placeApiKey)
            .send(envelope({ identifier: person.cpf })),
        ),
      ),
    );
    await settle();
    const visits = await count('SELECT COUNT(*) AS n FROM visits WHERE place_id = ?', [gym.place.id]);
    await eventually(
      async () =>
        (await count(
          "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE place_id = ? AND status = 'delivered'",
          [gym.place.id],
        )) >= visits,
      90_000,
      'every delivery delivered',
    );
    // Late copies would arrive within a poll or two.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await settle();
    const received = receiver.received
      .filter((each) => each.path === '/webhooks-test')
      .map((each) => String(each.headers['webhook-id']));
    const perId = tally(received);
    const events: { id: string; visitId: string }[] = await instances[0].dataSource.query(
      `SELECT event_id AS id, JSON_VALUE(payload, '$.check_in.id') AS visitId FROM webhook_deliveries WHERE place_id = ?`,
      [gym.place.id],
    );
    const eventsWithoutVisit = await count(
      `SELECT COUNT(*) AS n FROM webhook_deliveries e WHERE e.place_id = ?
       AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.id = JSON_VALUE(e.payload, '$.check_in.id'))`,
      [gym.place.id],
    );
    const eventsWrittenTwice = await count(
      'SELECT COUNT(*) - COUNT(DISTINCT event_id) AS n FROM webhook_deliveries WHERE place_id = ?',
      [gym.place.id],
    );
    const figures = {
      answers: tally(answers.map(outcome)),
      visits,
      events: events.length,
      received: received.length,
      distinctReceived: Object.keys(perId).length,
      receivedTwice: Object.values(perId).filter((n) => n > 1).length,
      eventsWithoutVisit,
      eventsWrittenTwice,
    };
    report('webhooks', figures);
    expect(visits).toBe(90);
    expect(figures.events).toBe(90);
    expect(figures.distinctReceived).toBe(90);
    expect(figures.receivedTwice).toBe(0);
    expect(eventsWithoutVisit).toBe(0);
    expect(eventsWrittenTwice).toBe(0);
  });

  it('a member check-in created through one node is read at once through the others', async () => {
    const gym = await createGym(instances[0]);
    const plan = await createBenefitPlan(instances[0].dataSource);
    const people = await Promise.all(
      Array.from({ length: 60 }, () => createBeneficiary(instances[0].dataSource, plan)),
    );
    await settle();
    let missed = 0;
    for (const [i, person] of people.entries()) {
      const checkIn = await createMemberCheckIn(instances[i % 3], {
        identifier: person.cpf,
        service_provider_code: gym.place.code,
      });
      const read = await request(instances[(i + 1) % 3].http)
        .get(`/member/v1/check_ins/${checkIn.id}`)
        .set('Authorization', memberAuth(instances[0]));
      if (read.status !== 200) missed++;
    }
    report('read after write', { reads: people.length, missed });
    expect(missed).toBe(0);
  });

  it('kill -9 of a node under load: every 204 has its visit, none doubled, and a repeat through another node answers as the first', async () => {
    // Two service processes of their own (passport's strategies are per process): one on node 1, one on node 2.
    const [portA, portB] = [await freePort(), await freePort()];
    const processA = new ServiceProcess({
      ...MANY_CLIENTS,
      PORT: String(portA),
      DATABASE_URL: cluster.url(0, DATABASE),
    });
    const processB = new ServiceProcess({
      ...MANY_CLIENTS,
      PORT: String(portB),
      DATABASE_URL: cluster.url(1, DATABASE),
    });
    try {
      await Promise.all([processA.waitUntilListening(90_000), processB.waitUntilListening(90_000)]);
      const [a, b] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
      const fixtures = instances[0];
      const gym = await createGym(fixtures);
      await subscribeCheckIns(fixtures, gym, receiver.url('/kill-test'));
      const plan = await createBenefitPlan(fixtures.dataSource);
      const people = await Promise.all(
        Array.from({ length: 161 }, () => createBeneficiary(fixtures.dataSource, plan)),
      );
      await settle();
      const register = (base: string, cpf: string, key: string) =>
        request(base)
          .post('/v1/track_usages')
          .set('x-api-key', gym.placeApiKey)
          .set('Idempotency-Key', key)
          .send(envelope({ identifier: cpf }))
          .then(
            (res) => res,
            () => undefined,
          );
      const visitsOf = async (beneficiaryId: number) =>
        count('SELECT COUNT(*) AS n FROM visits WHERE beneficiary_id = ?', [beneficiaryId]);
      const first: string[] = [];
      const final: string[] = [];
      let retries = 0;
      let committedDespiteFailure = 0;
      let slowestThroughA = 0;
      let slowestFailureThroughB = 0;
      let killedAt = 0;
      // A client sends its request to A or B; on a 5xx or no answer, the same request (same key) to A until
      // it gets the rules' answer.
      const client = async (index: number) => {
        const key = `galera-kill-${index}`;
        const started = Date.now();
        let answer = await register(index % 2 === 0 ? b : a, people[index].cpf, key);
        const took = Date.now() - started;
        if (index % 2 === 1 && killedAt > 0) slowestThroughA = Math.max(slowestThroughA, took);
        if (index % 2 === 0 && (!answer || answer.status >= 500))
          slowestFailureThroughB = Math.max(slowestFailureThroughB, took);
        first[index] = answer ? outcome(answer) : 'no answer';
        if (!answer || answer.status >= 500) {
          if ((await visitsOf(people[index].id)) > 0) committedDespiteFailure++;
        }
        const deadline = Date.now() + 60_000;
        while ((!answer || answer.status >= 500) && Date.now() < deadline) {
          retries++;
          await new Promise((resolve) => setTimeout(resolve, 100));
          const retried = Date.now();
          answer = await register(a, people[index].cpf, key);
          slowestThroughA = Math.max(slowestThroughA, Date.now() - retried);
        }
        final[index] = answer ? outcome(answer) : 'no answer';
      };
      const load = (async () => {
        for (let index = 0; index < 160; index += 8) {
          await Promise.all(Array.from({ length: 8 }, (_, j) => client(index + j)));
        }
      })();
      await eventually(() => first.filter(Boolean).length >= 40, 60_000, 'the load to be under way');
      killedAt = Date.now();
      await cluster.nodes[1].kill();
      await load;
      const loadMs = Date.now() - killedAt;
      const rows: { beneficiaryId: number; n: string }[] = await fixtures.dataSource.query(
        'SELECT beneficiary_id AS beneficiaryId, COUNT(*) AS n FROM visits WHERE place_id = ? GROUP BY beneficiary_id',
        [gym.place.id],
      );
      const visited = new Map(rows.map((row) => [Number(row.beneficiaryId), Number(row.n)]));
      // Every request once more through A, with its key: the answer must be the first one's, and no visit more.
      // (20 at a time: an address holds at most HTTP_MAX_CONNECTIONS_PER_ADDRESS connections.)
      const repeats: (request.Response | undefined)[] = [];
      for (let index = 0; index < 160; index += 20) {
        repeats.push(
          ...(await Promise.all(
            people
              .slice(index, index + 20)
              .map((person, j) => register(a, person.cpf, `galera-kill-${index + j}`)),
          )),
        );
      }
      const afterRepeats = await count('SELECT COUNT(*) AS n FROM visits WHERE place_id = ?', [gym.place.id]);
      // The node comes back, and the instance on it answers again.
      const restartedAt = Date.now();
      await cluster.nodes[1].start(false);
      let backThroughB: request.Response | undefined;
      await eventually(
        async () => {
          backThroughB = await register(b, people[160].cpf, 'galera-kill-back');
          return backThroughB?.status === 204;
        },
        90_000,
        "node 2's instance to answer again",
      );
      // Every visit's event reaches the receiver once the cluster is whole again (the poller's lease moves on
      // from a holder whose node died); a delivery whose outcome was lost with the node may come twice.
      await eventually(
        async () =>
          (await count(
            "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE place_id = ? AND status <> 'delivered'",
            [gym.place.id],
          )) === 0,
        90_000,
        'every delivery delivered',
      );
      const visits = await count('SELECT COUNT(*) AS n FROM visits WHERE place_id = ?', [gym.place.id]);
      const eventsWithoutVisit = await count(
        `SELECT COUNT(*) AS n FROM webhook_deliveries e WHERE e.place_id = ?
         AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.id = JSON_VALUE(e.payload, '$.check_in.id'))`,
        [gym.place.id],
      );
      const events = await count('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE place_id = ?', [
        gym.place.id,
      ]);
      const perId = tally(
        receiver.received
          .filter((each) => each.path === '/kill-test')
          .map((each) => String(each.headers['webhook-id'])),
      );
      const figures = {
        requests: 160,
        firstAnswers: tally(first),
        finalAnswers: tally(final),
        retries,
        committedDespiteFailure,
        slowestAnswerThroughNode1Ms: slowestThroughA,
        slowestFailureThroughNode2Ms: slowestFailureThroughB,
        msFromKillToLastAnswer: loadMs,
        withVisit: visited.size,
        doubled: [...visited.values()].filter((n) => n > 1).length,
        repeats: tally(repeats.map((res) => (res ? outcome(res) : 'no answer'))),
        visitsAfterRepeats: afterRepeats,
        msUntilNode2InstanceAnswersAfterRestart: Date.now() - restartedAt,
        events,
        eventsWithoutVisit,
        eventsReceived: Object.keys(perId).length,
        eventsReceivedTwice: Object.values(perId).filter((n) => n > 1).length,
      };
      report('node killed', figures);
      expect(figures.finalAnswers).toEqual({ '204': 160 });
      expect(people.slice(0, 160).every((person) => visited.get(person.id) === 1)).toBe(true);
      expect(figures.repeats).toEqual({ '204': 160 });
      expect(afterRepeats).toBe(160);
      expect(events).toBe(visits);
      expect(eventsWithoutVisit).toBe(0);
      expect(figures.eventsReceived).toBe(visits);
    } finally {
      await Promise.all([processA.stop(), processB.stop()]);
    }
  });
});
