import { readFileSync } from 'node:fs';
const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const per = Number(process.argv[3] ?? 1);
const self = new Map<string, number>(); let total = 0;
const byChain = new Map<string, number>();
function walk(node: any, chain: string[]) {
  const f = node.callFrame; const name = `${f.functionName || '(anon)'} ${f.url.replace(/.*node_modules\//, '').replace('/work/main/', '')}:${f.lineNumber}`;
  const c = [...chain, name];
  if (node.selfSize) {
    total += node.selfSize; self.set(name, (self.get(name) ?? 0) + node.selfSize);
    // first app-ish frame from the top of the stack that identifies the feature
    const key = [...c].reverse().find((n) => /dist\//.test(n)) ?? c[c.length - 1];
    byChain.set(key, (byChain.get(key) ?? 0) + node.selfSize);
  }
  for (const ch of node.children) walk(ch, c);
}
walk(profile.head, []);
console.log('total KB per request', (total / 1024 / per).toFixed(1));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1024 / per).toFixed(2).padStart(8), 'KB self', k);
console.log('--- by innermost dist frame');
for (const [k, v] of [...byChain].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / 1024 / per).toFixed(2).padStart(8), 'KB', k);
