import runIdSetup from '../../support/global-setup';
import { ensureConsoleBuilt } from './build-console';

/** The browser tests drive the console the service serves: built here when missing or out of date. */
export default async function globalSetup(): Promise<void> {
  await runIdSetup();
  ensureConsoleBuilt();
}
