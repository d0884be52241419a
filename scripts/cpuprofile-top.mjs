// Summarises a V8 .cpuprofile (node --cpu-prof): the functions with the most self time.
// Usage: node scripts/cpuprofile-top.mjs PROFILE [N]
import { readFileSync } from 'node:fs';
import process from 'node:process';

const [file, count = '25'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/cpuprofile-top.mjs PROFILE [N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map();
for (let i = 0; i < profile.samples.length; i += 1) {
  const node = byId.get(profile.samples[i]);
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${url.replace(/^.*\/(node_modules|packages)\//, '$1/')}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  selfMicros.set(key, (selfMicros.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfMicros.values()].reduce((sum, micros) => sum + micros, 0);
const rows = [...selfMicros.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count));
for (const [key, micros] of rows) {
  process.stdout.write(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}\n`);
}
