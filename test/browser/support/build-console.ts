import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const BUILT = join(ROOT, 'dist', 'console', 'index.html');

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the console (npm run build --workspace web) when dist/console is missing or older than web/. */
export function ensureConsoleBuilt(): void {
  const sources = Math.max(
    newestChange(join(ROOT, 'web', 'src')),
    statSync(join(ROOT, 'web', 'index.html')).mtimeMs,
  );
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= sources) return;
  execFileSync('npm', ['run', 'build', '--workspace', 'web'], { cwd: ROOT, stdio: 'inherit' });
}
