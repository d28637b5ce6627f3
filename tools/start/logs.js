// Logs of `npm start`: every line a process writes goes, unchanged (pino JSON), to
// .data/logs/<name>.log; the terminal gets a readable, quiet view: one short line per warning or
// error (a request answered 4xx/5xx is one), plain text lines until a process's logger is up (a
// crash while loading) and always for the demo receiver (its deliveries), and nothing for ordinary
// info lines unless START_VERBOSE=1 asks for one short line per request.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const WARN = 40;
/** Longest line shown in the terminal (the log file has all of it). */
const MAX_WIDTH = 240;
const shorten = (text) => (text.length > MAX_WIDTH ? `${text.slice(0, MAX_WIDTH - 1)}…` : text);

/** The previous run's file is kept as <name>.previous.log; each start writes a fresh <name>.log. */
function openLogFile(dir, name) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.log`);
  if (fs.existsSync(file)) fs.renameSync(file, path.join(dir, `${name}.previous.log`));
  return { file, stream: fs.createWriteStream(file, { flags: 'a' }) };
}

function clock(time) {
  const d = typeof time === 'number' ? new Date(time) : new Date();
  return d.toTimeString().slice(0, 8);
}

/** One short line for a pino record: time, level, process, message (a request as method, URL, status, time). */
function formatRecord(name, rec, colour = false) {
  const paint = (code, text) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const dim = (text) => paint('2', text);
  const level = LEVELS[rec.level] || String(rec.level);
  const tag =
    rec.level >= 50
      ? paint('31', level.padEnd(5))
      : rec.level >= WARN
        ? paint('33', level.padEnd(5))
        : dim(level.padEnd(5));
  let text;
  if (rec.req && rec.res) {
    text = `${rec.req.method} ${rec.req.url} -> ${rec.res.statusCode}${typeof rec.responseTime === 'number' ? ` (${rec.responseTime} ms)` : ''}`;
    if (rec.err && rec.err.message) text += `: ${rec.err.message}`;
  } else {
    text = rec.msg || (rec.err && rec.err.message) || '';
    if (rec.context && !['RouterExplorer', 'RoutesResolver'].includes(rec.context)) text = `${rec.context}: ${text}`;
    if (rec.err && rec.err.message && rec.msg && rec.msg !== rec.err.message) text += `: ${rec.err.message}`;
    if (rec.error_id) text += ` (error id ${rec.error_id})`;
    if (Array.isArray(rec.problems)) text += `: ${rec.problems.join('; ')}`;
  }
  return `${dim(clock(rec.time))} ${tag} ${`[${name}]`} ${shorten(text.replace(/\s+/g, ' ').trim())}`;
}

const LEVEL_NUMBERS = Object.fromEntries(Object.entries(LEVELS).map(([n, label]) => [label.toLowerCase(), Number(n)]));

/** A pino record (numeric level), or one of the processes' own boot-failure lines (`"level": "fatal"`). */
function parse(line) {
  if (!line.startsWith('{')) return undefined;
  try {
    const rec = JSON.parse(line);
    if (!rec || typeof rec !== 'object') return undefined;
    if (typeof rec.level === 'string' && LEVEL_NUMBERS[rec.level]) rec.level = LEVEL_NUMBERS[rec.level];
    return typeof rec.level === 'number' ? rec : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends a child's stdout and stderr to its log file and the readable view to the terminal.
 * Plain text lines go to the terminal too with `plain: 'always'`; with `plain: 'until-json'` only
 * until the first JSON line (before its logger is up a service can only crash in plain text;
 * afterwards plain lines are multi-line driver dumps beside a JSON warning that says it shortly).
 * `recent()` returns the last readable lines (info included), for reports when it fails;
 * `closed` settles once the log file has everything the process wrote.
 */
function attachLogs(
  child,
  { name, dir, out = process.stdout, verbose = process.env.START_VERBOSE === '1', plain = 'always' },
) {
  const { file, stream } = openLogFile(dir, name);
  const recent = [];
  const colour = Boolean(out.isTTY) && !process.env.NO_COLOR;
  let sawJson = false;
  const show = (line) => out.write(`${line}\n`);
  const handle = (line) => {
    stream.write(`${line}\n`);
    const rec = parse(line);
    const readable = rec ? formatRecord(name, rec, colour) : `[${name}] ${line}`;
    recent.push(readable);
    if (recent.length > 30) recent.shift();
    if (!rec) return (plain === 'always' || !sawJson) && show(readable);
    sawJson = true;
    if (rec.level >= WARN || (verbose && rec.req && rec.res)) show(readable);
  };
  for (const s of [child.stdout, child.stderr]) {
    let buffer = '';
    s.setEncoding('utf8');
    s.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) if (line) handle(line);
    });
    s.on('end', () => buffer && handle(buffer));
  }
  const closed = new Promise((resolve) => stream.on('finish', resolve));
  child.on('close', () => stream.end());
  return { file, recent: () => recent.slice(), closed };
}

module.exports = { attachLogs, formatRecord, openLogFile };
