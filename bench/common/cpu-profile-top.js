#!/usr/bin/env node
// Summarises a .cpuprofile (node --cpu-prof, or cpu-profile.js): the functions with the most self
// time, the packages (node_modules/<name>, our libs and apps, node internals) with the most self
// time, and the functions with the most total (inclusive) time. With --requests N every figure is
// also given per request, in microseconds of CPU.
//   node bench/common/cpu-profile-top.js <file.cpuprofile> [--requests N] [--top 25]
'use strict';
const fs = require('node:fs');
const { parseArgs } = require('node:util');

function args(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { requests: { type: 'string', default: '0' }, top: { type: 'string', default: '25' } },
    allowPositionals: true,
  });
  if (positionals.length !== 1)
    throw new Error('usage: cpu-profile-top.js <file.cpuprofile> [--requests N] [--top 25]');
  return { file: positionals[0], requests: Number(values.requests), top: Number(values.top) };
}

/** Where a function lives: a package, a folder of this repository, or node itself. */
function owner(url) {
  if (!url) return '(native/vm)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(apps|libs|bench)\/([^/]+)/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

function label(frame) {
  const file = frame.url ? frame.url.replace(/^.*\/(node_modules|apps|libs|bench)\//, '$1/') : '';
  return `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`;
}

function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const dt = new Map();
  const deltas = profile.timeDeltas ?? [];
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (deltas[i] ?? 0)));
  const self = new Map();
  const pkgs = new Map();
  const total = new Map();
  let all = 0;
  let idle = 0;
  for (const [id, us] of dt) {
    const node = byId.get(id);
    const name = node.callFrame.functionName;
    all += us;
    if (name === '(idle)') idle += us;
    const key = label(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + us);
    const o =
      name === '(garbage collector)'
        ? '(gc)'
        : name === '(idle)'
          ? '(idle)'
          : name === '(program)'
            ? '(program)'
            : owner(node.callFrame.url);
    pkgs.set(o, (pkgs.get(o) ?? 0) + us);
    // Inclusive time: once per distinct function on the stack.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(byId.get(cur).callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  return { self, pkgs, total, all, idle };
}

function print(title, map, busy, top, requests) {
  console.log(`\n${title}`);
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [k, us] of rows) {
    const per = requests ? `${(us / requests).toFixed(1).padStart(8)} us/req  ` : '';
    console.log(`${((100 * us) / busy).toFixed(1).padStart(6)} %  ${per}${k}`);
  }
}

const a = args(process.argv.slice(2));
const s = summarise(JSON.parse(fs.readFileSync(a.file, 'utf8')));
const busy = s.all - s.idle;
console.log(
  `sampled ${(s.all / 1e6).toFixed(2)} s, busy ${(busy / 1e6).toFixed(2)} s${a.requests ? `, ${a.requests} requests: ${(busy / a.requests).toFixed(0)} us CPU per request` : ''} (percentages of busy time)`,
);
s.self.delete(label({ functionName: '(idle)', url: '', lineNumber: 0 }));
s.pkgs.delete('(idle)');
print('self time by owner', s.pkgs, busy, a.top, a.requests);
print('self time by function', s.self, busy, a.top, a.requests);
for (const name of ['(root)', '(idle)']) s.total.delete(label({ functionName: name, url: '', lineNumber: 0 }));
print('total time by function', s.total, busy, a.top, a.requests);
