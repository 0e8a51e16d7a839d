// Builds for `BENCH_CPU_PARTS=1 npx ts-node -T scripts/bench-cpu.ts`: copies of the production build (dist/),
// each doing one part less of a register's event, so that the CPU each part costs inside a register run (beside
// the registers, not alone) is the difference between two of them measured in the same round:
//   no-event   the register neither builds nor writes its event (the facts read still reads the subscriber)
//   event-row  the event's row is written as if delivered already: nothing is sent, nothing scheduled (every
//              event's row, member check-ins' too: a register run writes only its own)
//   no-http    the event is delivered, every attempt answered 204 at once without a request
//   current    the build as it is
// Each copy changes one compiled statement; a build whose text no longer matches stops the run and names the
// file, so the parts are never measured on a copy that silently changed nothing. For measurement only.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Build } from './bench';

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
        '        return Promise.resolve(\n' +
        '            { ok: true, statusCode: 204, durationMs: 0, responseBody: null, error: null });\n',
    },
  },
  { label: 'current' },
];

const PROJECT = resolve(__dirname, '..');

/**
 * The copies of the project's `dist` (made afresh in a folder of this process under the system's temporary
 * folder, removed when the process exits), each with its `main.js`.
 */
export function partsBuilds(): Build[] {
  const dist = join(PROJECT, 'dist');
  if (!existsSync(join(dist, 'main.js'))) throw new Error(`No build at ${dist}: run npx nest build first`);
  const root = join(tmpdir(), `gym-delivery-parts-${process.pid}`);
  mkdirSync(root, { recursive: true });
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  // The copies resolve their packages from the project's node_modules.
  symlinkSync(join(PROJECT, 'node_modules'), join(root, 'node_modules'));
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
