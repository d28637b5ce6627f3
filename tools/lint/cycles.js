#!/usr/bin/env node
// Imports point one way, inside every app and lib: `npm run lint` fails on a cycle between files
// (dependency-cruiser's rule in .dependency-cruiser.js) or between folders (checked here).
//
// Folders: at every level of a project, the sub-folders of one folder must not reach each other
// in a circle, each counted with everything inside it. So `sign-in/portal -> sign-in/oidc ->
// sign-in/portal` is a cycle, and so is `roster -> caching -> roster`. A folder's own files may wire
// its sub-folders (a Nest module) and serve them (a shared repository): the file rule still keeps
// those from going round. A cycle is mended by moving what both sides need below both.
'use strict';

const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const PROJECT = /^(apps|libs)\/[^/]+\//;

async function cruiseProductionCode() {
  const { cruise } = await import('dependency-cruiser');
  const config = require(path.join(ROOT, '.dependency-cruiser.js'));
  const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
  const tsConfig = extractTSConfig(path.join(ROOT, 'tsconfig.json'));
  const options = { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true };
  const result = await cruise(['apps', 'libs'], options, undefined, { tsConfig });
  return result.output;
}

/** Pairs of (folder, child folder) edges: for each parent, which of its children reach which. */
function siblingEdges(modules) {
  const edges = new Map(); // parent -> Map("a\tb" -> example file pair)
  for (const from of modules) {
    const project = PROJECT.exec(from.source)?.[0];
    if (!project) continue;
    for (const dep of from.dependencies) {
      if (!dep.resolved.startsWith(project)) continue; // other projects: Nx's boundaries rule
      const a = from.source.split('/');
      const b = dep.resolved.split('/');
      let i = 0;
      while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
      // Both files sit below one common folder in different sub-folders of it.
      if (i >= a.length - 1 || i >= b.length - 1) continue;
      const parent = a.slice(0, i).join('/');
      const key = `${a[i]}\t${b[i]}`;
      if (!edges.has(parent)) edges.set(parent, new Map());
      const byPair = edges.get(parent);
      if (!byPair.has(key)) byPair.set(key, `${from.source} -> ${dep.resolved}`);
    }
  }
  return edges;
}

/** Strongly connected components of more than one node (Tarjan). */
function circles(pairs) {
  const next = new Map();
  for (const key of pairs.keys()) {
    const [a, b] = key.split('\t');
    if (!next.has(a)) next.set(a, []);
    if (!next.has(b)) next.set(b, []);
    next.get(a).push(b);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    for (const w of next.get(v)) {
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v), low.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const members = stack.splice(stack.indexOf(v));
    if (members.length > 1) found.push(members.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The shortest way round from the first member back to itself, through members only. */
function shortestCircle(members, pairs) {
  const start = members[0];
  const before = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    for (const to of members) {
      if (!pairs.has(`${at}\t${to}`)) continue;
      if (to === start) {
        const path = [start];
        for (let p = at; p !== null; p = before.get(p)) path.unshift(p);
        return path;
      }
      if (before.has(to)) continue;
      before.set(to, at);
      queue.push(to);
    }
  }
  return [...members, start];
}

function folderCycles(modules) {
  const lines = [];
  for (const [parent, pairs] of [...siblingEdges(modules)].sort(([a], [b]) => a.localeCompare(b))) {
    for (const members of circles(pairs)) {
      const circle = shortestCircle(members, pairs);
      lines.push(`error no-folder-cycle: in ${parent}/: ${circle.join(' -> ')}`);
      for (let i = 0; i + 1 < circle.length; i++)
        lines.push(`    ${circle[i]} -> ${circle[i + 1]}  (${pairs.get(`${circle[i]}\t${circle[i + 1]}`)})`);
      if (members.length > circle.length - 1) lines.push(`    (the circle also takes in: ${members.join(', ')})`);
    }
  }
  return lines;
}

function fileCycles(output) {
  return output.summary.violations
    .filter((v) => v.rule.severity === 'error')
    .map((v) => `error ${v.rule.name}: ${[v.from, ...(v.cycle ?? [v.to]).map((c) => c.name ?? c)].join(' -> ')}`);
}

async function main() {
  const output = await cruiseProductionCode();
  const problems = [...fileCycles(output), ...folderCycles(output.modules)];
  for (const line of problems) console.error(line);
  const files = output.summary.totalCruised;
  if (problems.length > 0) {
    console.error(`\nimport cycles: ${problems.filter((l) => l.startsWith('error')).length} (${files} files read)`);
    console.error('Move what both sides need into a file or folder below both; see .dependency-cruiser.js.');
    process.exit(1);
  }
  console.log(`import cycles: none (${files} files read)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
