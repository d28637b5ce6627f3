// Summarises a bench/results/gc-<pid>.json written by gc-pauses.js: per kind of collection, how
// many, their total time and their pause distribution, then the event loop's worst second.
//   node bench/common/gc-pauses-summary.js bench/results/gc-<pid>.json
'use strict';
const fs = require('node:fs');

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node bench/common/gc-pauses-summary.js bench/results/gc-<pid>.json\n');
  process.exit(2);
}
const { pauses, loopDelayPerSecond } = JSON.parse(fs.readFileSync(file, 'utf8'));
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const byKind = new Map();
for (const p of pauses) {
  if (!byKind.has(p.kind)) byKind.set(p.kind, []);
  byKind.get(p.kind).push(p.ms);
}
for (const [kind, ms] of byKind) {
  ms.sort((a, b) => a - b);
  const total = ms.reduce((a, b) => a + b, 0);
  process.stdout.write(
    `${kind.padEnd(15)} ${String(ms.length).padStart(6)} pauses, ${(total / 1000).toFixed(2)} s; ` +
      `median ${at(ms, 0.5)} ms, p90 ${at(ms, 0.9)} ms, max ${ms[ms.length - 1]} ms\n`,
  );
}
const worst = loopDelayPerSecond.reduce((a, s) => (s.max > a.max ? s : a), { p99: 0, max: 0 });
process.stdout.write(`event loop delay, worst second: p99 ${worst.p99} ms, max ${worst.max} ms\n`);
