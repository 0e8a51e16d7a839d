import { createInterface } from 'node:readline';
// per sample: innermost JS frame, and whether leaf is kernel; group by innermost JS frame (filter regex argv[2])
const filter = new RegExp(process.argv[2] ?? '.');
const counts = new Map<string, number>(); let total = 0; let frames: string[] | null = null;
const close = () => { if (!frames) return; total++; const js = frames.find((f) => f.includes('JS:'));
  const stack = frames.join(' ');
  if (filter.test(stack)) { const leafK = /\[kernel|_k\]|\(\[kernel/.test(frames[0]) ? 'K ' : '  ';
    const key = leafK + (js ? js.replace(/^\s*[0-9a-f]+\s+/, '').slice(0, 110) : '(no JS) ' + frames[0].trim().slice(0, 80));
    counts.set(key, (counts.get(key) ?? 0) + 1); } frames = null; };
(async () => { for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') close(); else if (/^\S/.test(line)) { close(); frames = []; } else frames?.push(line); }
  close(); const n = Number(process.argv[3] ?? 6000);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 40));
  console.log('total samples', total);
  for (const [k, v] of sorted) console.log(String(((v * 1001) / n).toFixed(1)).padStart(7), 'us', k); })();
