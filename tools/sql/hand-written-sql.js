#!/usr/bin/env node
// The hand-written SQL of the alerts API, the webhook dispatcher and their delivery store, as
// checked-in files under sql/ reviewed like code (the OneRoster API's generated SQL is written by
// apps/oneroster/test/sql-snapshots.int-spec.ts). Every string or template literal that starts a
// statement is listed under the declaration holding it, `${...}` parts as written in the source.
//   node tools/sql/hand-written-sql.js           check: exit 1 naming each file that differs
//   node tools/sql/hand-written-sql.js --write   write the files anew (then review the diff)
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '../..');

/** Snapshot file -> the source folders whose statements it lists. */
const SNAPSHOTS = {
  'sql/alerts.sql': ['apps/alerts/src'],
  'sql/webhook-dispatcher.sql': ['apps/webhook-dispatcher/src'],
  'sql/deliveries.sql': ['libs/persistence/src/deliveries'],
};

const STATEMENT =
  /^\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+(?:\w+\s+)?SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\()/i;

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.ts$/.test(entry.name) && !/\.(spec|int-spec)\.ts$/.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

/** The literal's text, template parts as written. */
function literalText(node, source) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (!ts.isTemplateExpression(node)) return undefined;
  let text = node.head.text;
  for (const span of node.templateSpans) text += `\${${span.expression.getText(source)}}${span.literal.text}`;
  return text;
}

/** `Class.method`, `function` or `CONSTANT`: the nearest named declarations around a node. */
function holderOf(node) {
  const names = [];
  for (let n = node.parent; n; n = n.parent) {
    const name = n.name && ts.isIdentifier(n.name) ? n.name.text : undefined;
    if (
      name &&
      (ts.isClassDeclaration(n) || ts.isFunctionLike(n) || ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n))
    )
      names.unshift(name);
  }
  return names.join('.') || '(module)';
}

function dedent(text) {
  const lines = text.replace(/\s+$/, '').split('\n');
  const indents = lines
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => l.match(/^ */)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [lines[0].trim(), ...lines.slice(1).map((l) => l.slice(cut))].join('\n');
}

function statementsOf(file) {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    const sql = literalText(node, source);
    if (sql !== undefined && STATEMENT.test(sql)) found.push({ holder: holderOf(node), sql: dedent(sql) });
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function render(snapshot, dirs) {
  const parts = [`-- Hand-written SQL of ${dirs.join(', ')} (node tools/sql/hand-written-sql.js --write)`];
  for (const file of dirs.flatMap(sourceFiles)) {
    for (const { holder, sql } of statementsOf(file)) parts.push('', `-- ${file}: ${holder}`, `${sql};`);
  }
  return `${parts.join('\n')}\n`;
}

function main() {
  const write = process.argv.includes('--write');
  const stale = [];
  for (const [snapshot, dirs] of Object.entries(SNAPSHOTS)) {
    const text = render(snapshot, dirs);
    const file = path.join(ROOT, snapshot);
    if (write) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    } else if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) stale.push(snapshot);
  }
  if (stale.length) {
    console.error(
      `SQL changed without its snapshot: ${stale.join(', ')} (npm run sql:snapshots, then review the diff)`,
    );
    process.exitCode = 1;
  }
}

module.exports = { SNAPSHOTS, render };
if (require.main === module) main();
