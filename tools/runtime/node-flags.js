// Node and V8 flags a service runs with, by entry point: read by `npm start` and the benchmarks,
// and written out in the Dockerfile's CMD of that app (k8s/test/dockerfile.spec.ts checks they agree).
'use strict';

const NODE_FLAGS = {
  // Each OneRoster read holds a page of rows and its rendered JSON while it waits for the pool: at
  // 32 concurrent requests the default 16 MB semi-space fills in a few requests and every scavenge
  // copies that live data again. 64 MB cut the service's CPU per users page by about a tenth at 32
  // connections (bench/oneroster/README.md); the young generation then grows to 128 MB instead of 32.
  //
  // Allocation-site pretenuring off: by every sign V8 began allocating pg's row objects straight
  // into the old generation (a page's rows often outlive a scavenge under load), so each row, dead within
  // milliseconds, still held its young field strings through the remembered set at every
  // scavenge: about 7 MB copied and promoted per scavenge, 7-9 ms pauses every ~90 ms, and a
  // full collection every ~3 s. Without it: scavenges of 1.8 ms (median) and under half the
  // collector's time at the same load (bench/oneroster/README.md, 2026-11-28).
  'apps/oneroster/src/main': ['--max-semi-space-size=64', '--no-allocation-site-pretenuring'],
  // A submission of up to 1,000 messages is turned into validated class instances at once: the
  // collector took 27 % of the alerts service's CPU in a burst. With 64 MB, 30,000 deliveries
  // were submitted in 10.6-11.2 s instead of 11.6-13.1 s (bench/alerts/README.md).
  'apps/alerts/src/main': ['--max-semi-space-size=64'],
  // The sync worker runs the CSV importer in its own thread (it holds the tenant's lock on its
  // connection): the young generation the importer's worker thread gets (import-runner.ts).
  'apps/oneroster/src/sources/worker/main': ['--max-semi-space-size=64'],
};

/** The flags of an entry point (`apps/oneroster/src/main`), none for most. */
function nodeFlagsFor(entry) {
  return NODE_FLAGS[entry] ?? [];
}

module.exports = { nodeFlagsFor };
