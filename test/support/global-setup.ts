/** One run id for the whole run, inherited by every worker. */
export default async function globalSetup(): Promise<void> {
  process.env.GYM_TEST_RUN_ID ??= `${Date.now().toString(36)}${process.pid}`;
}
