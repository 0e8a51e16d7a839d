// Builds for `BENCH_CPU_PARTS=1 npx ts-node -T scripts/bench-cpu.ts`: copies of the production build (dist/),
// each doing one part less of a register's event, so that the CPU each part costs inside a register run (beside
// the registers, not alone) is the difference between two of them measured in the same round:
//   no-event   the register writes no event (its gym's subscription is not read into one)
//   event-row  the event's row is written as if delivered already: nothing is sent, nothing scheduled
//   no-http    the event is delivered, every attempt answered 204 at once without a request
//   current    the build as it is
// Each copy changes one compiled statement; a build whose text no longer matches stops the run and names the
// file, so the parts are never measured on a copy that silently changed nothing. For measurement only.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface Patch {
  file: string;
  from: string;
  to: string;
}

const PARTS: { label: string; patch?: Patch }[] = [
  {
    label: 'no-event',
    patch: { file: 'modules/check-in/check-in.service.js', from: '...(subscriber\n', to: '...(false\n' },
  },
  {
    label: 'event-row',
    patch: {
      file: 'modules/webhooks/webhooks.repository.js',
      from: "'pending', 0, ?, ?)",
      // The due time's value is still bound (the statement keeps its parameters), but the row is over.
      to: "'delivered', 0, NULL + 0 * UNIX_TIMESTAMP(?), ?)",
    },
  },
  {
    label: 'no-http',
    patch: {
      file: 'modules/webhooks/delivery/webhook-sender.js',
      from: '    send(message) {\n',
      to:
        '    send(message) {\n' +
        '        return Promise.resolve({ ok: true, statusCode: 204, durationMs: 0, responseBody: null, error: null });\n',
    },
  },
  { label: 'current' },
];

/** The copies of `dist` (made afresh under the system's temporary folder), each with its `main.js`. */
export function partsBuilds(dist = resolve(__dirname, '..', 'dist')): { label: string; path: string }[] {
  if (!existsSync(join(dist, 'main.js'))) throw new Error(`No build at ${dist}: run npx nest build first`);
  const root = join(tmpdir(), 'gym-delivery-parts');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  // The copies resolve their packages from the project's node_modules.
  symlinkSync(resolve(dist, '..', 'node_modules'), join(root, 'node_modules'));
  return PARTS.map(({ label, patch }) => {
    if (!patch) return { label, path: join(dist, 'main.js') };
    const copy = join(root, label);
    cpSync(dist, copy, { recursive: true });
    const file = join(copy, patch.file);
    const text = readFileSync(file, 'utf8');
    if (text.split(patch.from).length !== 2)
      throw new Error(
        `${patch.file} no longer holds the statement the ${label} build changes: update delivery-parts.ts`,
      );
    writeFileSync(file, text.replace(patch.from, patch.to));
    return { label, path: join(copy, 'main.js') };
  });
}
