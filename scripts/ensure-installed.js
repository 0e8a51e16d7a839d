// `npm test`'s first step: on a fresh clone (no node_modules yet) it installs the locked dependencies, so the
// test command works on its own; where they are installed (a demo may be running on them) it does nothing.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
if (!existsSync(join(root, 'node_modules', '.bin', 'jest'))) {
  console.log('node_modules is missing: running npm ci first');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
