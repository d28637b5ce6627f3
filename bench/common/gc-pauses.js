// Preloaded with `node -r` (BENCH_SERVICE_NODE_ARGS="-r ./bench/common/gc-pauses.js"): records every
// garbage collection pause (its start, length and kind) and the event loop's delay per second, and
// writes them into bench/results/gc-<pid>.json when the process is asked to stop, so that a
// scenario's tail latency can be set beside the pauses that fell within it.
'use strict';
const perfHooks = require('node:perf_hooks');

const { monitorEventLoopDelay, constants } = perfHooks;
const fs = require('node:fs');
const path = require('node:path');

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak-callbacks',
};
const pauses = [];
new perfHooks.PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    pauses.push({ at: Math.round(e.startTime), ms: +e.duration.toFixed(2), kind: KINDS[e.detail.kind] ?? 'other' });
  }
}).observe({ entryTypes: ['gc'] });

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const seconds = [];
setInterval(() => {
  seconds.push({ p99: +(loop.percentile(99) / 1e6).toFixed(1), max: +(loop.max / 1e6).toFixed(1) });
  loop.reset();
}, 1000).unref();

process.prependListener('SIGTERM', () => {
  const dir = path.resolve(__dirname, '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `gc-${process.pid}.json`), JSON.stringify({ pauses, loopDelayPerSecond: seconds }));
});
