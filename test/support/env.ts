// Runs before every e2e test file: one database per worker per run (emptied as a file's first app starts, see
// test-app.ts), and a queue prefix of the file's own, so no job a previous file left in Redis runs in this one.
const runId = (process.env.GYM_TEST_RUN_ID ??= `${Date.now().toString(36)}${process.ppid}`);
const worker = process.env.JEST_WORKER_ID ?? '1';
const base = new URL(process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/gym_integration');
base.pathname = `/gym_test_${runId}_w${worker}`;
process.env.DATABASE_URL = base.toString();
process.env.QUEUE_PREFIX = `gymtest_${runId}_w${worker}_${Date.now().toString(36)}`;
if (process.env.TEST_REDIS_URL) process.env.REDIS_URL = process.env.TEST_REDIS_URL;
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
// Specs read English sentences; test/i18n.e2e-spec.ts checks the pt-BR default and the other languages.
process.env.DEFAULT_LOCALE ??= 'en';
