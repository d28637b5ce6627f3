/**
 * Runs the command blocks of the Markdown documents under docs/ (conventions: docs/README.md).
 *
 * - ```sh            runs; every block of a document runs in order in one bash process
 *                    (`set -euo pipefail`), so variables set by one block are there for the next.
 * - ```text output   right after a ```sh block: that block's standard output must match it
 *                    (`…` stands for any text within a line; a line holding only `…` for any lines).
 * - ```sh server     a long-running process (a reader starts it in a second terminal): started in
 *                    the background, in its own process group, and stopped by the caller.
 * - ```sh k8s        needs a Kubernetes cluster: not run here; returned for the caller to check.
 * - any other fence  shown only (text, json, yaml, sql, ...). `bash`, `shell`, `console` and
 *                    unknown `sh` attributes are refused, so no command is silently left unrun.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnWithSockets, type ListeningSocket } from '@edu/testing';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export type BlockKind = 'run' | 'server' | 'k8s';

export interface DocBlock {
  kind: BlockKind;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The ```text output block that follows, if any. */
  expected?: { text: string; line: number };
}

export interface Doc {
  /** Path relative to the repository root. */
  file: string;
  blocks: DocBlock[];
}

const SHOWN_ONLY = new Set([
  'text',
  'json',
  'yaml',
  'yml',
  'sql',
  'http',
  'python',
  'go',
  'js',
  'javascript',
  'ts',
  'typescript',
  'csv',
  'promql',
  'ini',
  'diff',
  '',
]);
const REFUSED = new Set(['bash', 'shell', 'zsh', 'console', 'shell-session', 'sh-session']);

/** Reads a document's fenced blocks; throws naming file and line for a fence the conventions refuse. */
export function parseDoc(file: string, text = readFileSync(path.join(REPO_ROOT, file), 'utf8')): Doc {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let lastRun: DocBlock | undefined;
  let sinceLastRun = 0;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s+(```|~~~)/.test(lines[i]))
      throw new Error(
        `${file}:${i + 1}: an indented fence: start fences at the beginning of the line, so the docs test sees every block`,
      );
    const open = /^(`{3,}|~{3,})\s*([\w-]*)\s*(.*?)\s*$/.exec(lines[i]);
    if (!open) {
      if (lines[i].trim() !== '') sinceLastRun++;
      continue;
    }
    const [, fence, lang, attrs] = open;
    const start = i;
    const body: string[] = [];
    const closes = (l: string) => l.trim().length >= fence.length && new RegExp(`^\\${fence[0]}+$`).test(l.trim());
    for (i++; i < lines.length && !closes(lines[i]); i++) body.push(lines[i]);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: the fence is never closed`);
    const code = body.join('\n');
    const where = `${file}:${start + 1}`;
    if (lang === 'sh') {
      const kind: BlockKind | undefined =
        attrs === '' ? 'run' : attrs === 'server' ? 'server' : attrs === 'k8s' ? 'k8s' : undefined;
      if (!kind)
        throw new Error(
          `${where}: unknown sh block attribute ${JSON.stringify(attrs)} (sh, sh server or sh k8s; see docs/README.md)`,
        );
      const block: DocBlock = { kind, code, line: start + 1 };
      blocks.push(block);
      lastRun = kind === 'run' ? block : undefined;
      sinceLastRun = 0;
      continue;
    }
    if (REFUSED.has(lang))
      throw new Error(
        `${where}: a \`${lang}\` block: write commands as \`sh\` (run by the docs test) and what they print as \`text\` (see docs/README.md)`,
      );
    if (lang === 'text' && attrs === 'output') {
      if (!lastRun || sinceLastRun > 0 || lastRun.expected)
        throw new Error(
          `${where}: a \`text output\` block must directly follow the \`sh\` block whose output it shows`,
        );
      lastRun.expected = { text: code, line: start + 1 };
      lastRun = undefined;
      continue;
    }
    if (attrs !== '' || !SHOWN_ONLY.has(lang))
      throw new Error(
        `${where}: unknown block \`${lang}${attrs ? ` ${attrs}` : ''}\` (see docs/README.md for the conventions)`,
      );
    lastRun = undefined;
  }
  return { file, blocks };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Why `actual` does not match the expected output (undefined when it does). */
export function outputMismatch(expected: string, actual: string): string | undefined {
  const want = expected.replace(/\s+$/, '');
  const got = `${actual.replace(/\s+$/, '')}\n`;
  const pattern = want
    .split('\n')
    .map((l) =>
      l.trim() === '…' ? '(?:[^\\n]*\\n)*?' : `${l.trimEnd().split('…').map(escapeRegExp).join('[^\\n]*?')}[ \\t]*\\n`,
    )
    .join('');
  if (new RegExp(`^${pattern}$`).test(got)) return undefined;
  return `expected output:\n${want}\n--- got:\n${got}`;
}

export interface BlockResult {
  block: DocBlock;
  stdout: string;
  stderr: string;
}

export interface ServerProcess {
  block: DocBlock;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export interface DocRun {
  doc: Doc;
  ok: boolean;
  /** Why it failed: the block, its exit code, what it printed. */
  failure?: string;
  results: BlockResult[];
  servers: ServerProcess[];
  /** Blocks marked `sh k8s`: not run, for the caller to check. */
  k8s: DocBlock[];
  ms: number;
}

const quoteHeredoc = (code: string, tag: string) => {
  if (code.split('\n').some((l) => l === tag)) throw new Error(`a block holds the line ${tag}`);
  return `<<'${tag}'\n${code}\n${tag}`;
};

/**
 * The bash script that runs a document: its blocks in order, each one's output in its own files.
 * With `serverSocket`, the script holds a listening socket as descriptor 3: its `sh server` block
 * serves it (LISTEN_FD=3), the other blocks do not inherit it.
 */
export function scriptFor(doc: Doc, outDir: string, serverSocket = false): string {
  if (serverSocket && doc.blocks.filter((b) => b.kind === 'server').length !== 1)
    throw new Error(
      `${doc.file}: a socket is handed to the one \`sh server\` block of a document, and it has another number`,
    );
  const lines = [
    'set -euo pipefail',
    // Variables the blocks set reach `sh server` processes (separate processes) too.
    'set -a',
    `cd ${JSON.stringify(REPO_ROOT)}`,
  ];
  doc.blocks.forEach((b, i) => {
    if (b.kind === 'k8s') return;
    const out = (suffix: string) => JSON.stringify(path.join(outDir, `${i}.${suffix}`));
    lines.push(`# ${doc.file}:${b.line}`, `echo ${i} > ${JSON.stringify(path.join(outDir, 'current'))}`);
    if (b.kind === 'run') {
      lines.push('{', b.code, `} > ${out('out')} 2> ${out('err')}${serverSocket ? ' 3<&-' : ''}`);
    } else {
      // Its own session and process group, so that stopping it stops what it started.
      lines.push(
        `${serverSocket ? 'LISTEN_FD=3 ' : ''}setsid bash -c "$(cat ${quoteHeredoc(b.code, `__DOCS_SERVER_${i}`)}`,
        `)" > ${out('out')} 2>&1 < /dev/null &`,
        `echo "${i} $!" >> ${JSON.stringify(path.join(outDir, 'servers'))}`,
      );
    }
  });
  lines.push(`echo done > ${JSON.stringify(path.join(outDir, 'current'))}`);
  return `${lines.join('\n')}\n`;
}

const readOr = (file: string, fallback = '') => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
};

function tail(text: string, lines = 40): string {
  const all = text.replace(/\s+$/, '').split('\n');
  return (all.length > lines ? ['…', ...all.slice(-lines)] : all).join('\n');
}

function stopGroup(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      return resolve();
    }
    const deadline = Date.now() + 5_000;
    const poll = () => {
      if (!alive()) return resolve();
      if (Date.now() > deadline) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* gone */
        }
        return resolve();
      }
      setTimeout(poll, 50);
    };
    poll();
  });
}

/**
 * Runs a document's `sh` and `sh server` blocks with `env` (on top of PATH and HOME) and checks
 * every `text output`. Servers keep running after it returns: the caller stops them.
 * `serverSocket`: the socket its `sh server` block serves (LISTEN_FD), so that its port is held
 * from before the document runs.
 */
export async function runDoc(
  doc: Doc,
  env: Record<string, string>,
  timeoutMs = 120_000,
  serverSocket?: ListeningSocket,
): Promise<DocRun> {
  const started = Date.now();
  const outDir = mkdtempSync(path.join(tmpdir(), 'docs-run-'));
  const script = scriptFor(doc, outDir, serverSocket !== undefined);
  const child = spawnWithSockets(
    'bash',
    ['-c', script],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8', ...env },
      detached: true,
    },
    serverSocket ? { DOCS_SERVER_SOCKET_FD: serverSocket } : {},
  );
  let own = '';
  child.stdout?.on('data', (d) => (own += d));
  child.stderr?.on('data', (d) => (own += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(child.pid as number);
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);

  const runnable = doc.blocks.map((b, i) => ({ b, i })).filter(({ b }) => b.kind !== 'k8s');
  // The run's files go once every server it started has been stopped (servers write there).
  let open = 0;
  const cleanup = () => rmSync(outDir, { recursive: true, force: true });
  const servers: ServerProcess[] = readOr(path.join(outDir, 'servers'))
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [i, pid] = l.split(' ').map(Number);
      const file = path.join(outDir, `${i}.out`);
      let final: string | undefined;
      open++;
      return {
        block: doc.blocks[i],
        pid,
        output: () => final ?? readOr(file),
        stop: async () => {
          if (final !== undefined) return;
          await stopGroup(pid);
          final = readOr(file);
          if (--open === 0) cleanup();
        },
      };
    });
  const results: BlockResult[] = runnable
    .filter(({ b }) => b.kind === 'run')
    .map(({ b, i }) => ({
      block: b,
      stdout: readOr(path.join(outDir, `${i}.out`)),
      stderr: readOr(path.join(outDir, `${i}.err`)),
    }));
  const current = readOr(path.join(outDir, 'current')).trim();
  let failure: string | undefined;
  if (timedOut || code !== 0 || current !== 'done') {
    const i = Number(current);
    const b = doc.blocks[i];
    failure = b
      ? `${doc.file}:${b.line}: the block ${timedOut ? `did not finish within ${timeoutMs} ms` : `exited with ${code}`}:\n${b.code}\n--- stdout:\n${tail(readOr(path.join(outDir, `${i}.out`)))}\n--- stderr:\n${tail(readOr(path.join(outDir, `${i}.err`)))}${own.trim() ? `\n--- bash (a syntax error shows here):\n${tail(own)}` : ''}`
      : `${doc.file}: the script ${timedOut ? 'timed out' : `exited with ${code}`} before its first block:\n${tail(own)}`;
  } else {
    for (const r of results) {
      if (!r.block.expected) continue;
      const mismatch = outputMismatch(r.block.expected.text, r.stdout);
      if (mismatch) {
        failure = `${doc.file}:${r.block.expected.line}: the output of the block at line ${r.block.line} does not match:\n${mismatch}${r.stderr ? `\n--- stderr:\n${tail(r.stderr)}` : ''}`;
        break;
      }
    }
  }
  if (open === 0) cleanup();
  return {
    doc,
    ok: failure === undefined,
    failure,
    results,
    servers,
    k8s: doc.blocks.filter((b) => b.kind === 'k8s'),
    ms: Date.now() - started,
  };
}
