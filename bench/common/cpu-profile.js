// Preloaded with `node -r` by the benchmarks' --profile flag: samples the process's CPU from
// start and writes a .cpuprofile (open it in Chrome DevTools) into bench/results/ when the process
// is asked to stop. Node's own --cpu-prof writes only on a normal exit, and the services re-raise
// SIGTERM after closing.
'use strict';
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');
const dir = path.resolve(__dirname, '..', 'results');
process.prependListener('SIGTERM', () => {
  session.post('Profiler.stop', (err, result) => {
    if (err) return;
    fs.mkdirSync(dir, { recursive: true });
    const entry = (process.argv[2] || 'process').replace(/[^a-z0-9]+/gi, '-');
    fs.writeFileSync(path.join(dir, `${entry}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
