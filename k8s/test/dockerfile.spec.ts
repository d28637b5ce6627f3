/** Static checks of the Dockerfile and .dockerignore (Docker is not needed to run them). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './kustomize';
import { APP_PORTS, APPS, appEntry, KNOWN_VARIABLES, RUNNER } from './platform';

// The flags `npm start` and the benchmarks run each app with: its CMD must carry the same.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { nodeFlagsFor } = require(path.join(REPO_ROOT, 'tools', 'runtime', 'node-flags.js')) as {
  nodeFlagsFor(entry: string): string[];
};

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions in order: comments dropped, backslash continuations joined. */
function parseInstructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  let startLine = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (!pending && (line.trim() === '' || line.trim().startsWith('#'))) return;
    if (pending && line.trim().startsWith('#')) return; // comment lines inside a continuation
    if (!pending) startLine = i + 1;
    pending += (pending ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) return;
    const [keyword, ...rest] = pending.split(/\s+/);
    out.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), line: startLine });
    pending = '';
  });
  if (pending) throw new Error('Dockerfile ends inside a line continuation');
  return out;
}

function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const ins of parseInstructions(text)) {
    if (ins.keyword === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!match) throw new Error(`line ${ins.line}: cannot read FROM ${ins.args}`);
      stages.push({ from: match[1], name: match[2], instructions: [] });
    } else if (stages.length === 0) {
      if (ins.keyword !== 'ARG') throw new Error(`line ${ins.line}: only ARG may come before the first FROM`);
      globalArgs.push(ins);
    } else {
      stages[stages.length - 1].instructions.push(ins);
    }
  }
  return { globalArgs, stages };
}

/** `KEY=value KEY2="value 2"` (ENV, ARG, LABEL) into a map. */
function keyValues(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_.-]*)(?:=("([^"]*)"|\S*))?/g)) out[m[1]] = m[3] ?? m[2] ?? '';
  return out;
}

const text = fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
const { globalArgs, stages } = parseDockerfile(text);
const globals = Object.assign({}, ...globalArgs.map((a) => keyValues(a.args))) as Record<string, string>;
const stageNamed = (name: string): Stage => {
  const stage = stages.find((s) => s.name === name);
  if (!stage) throw new Error(`Dockerfile has no stage ${name}`);
  return stage;
};
const finalStage = stages[stages.length - 1];

/** The chain of stages the final image is built from when APP=app, base first. */
function chainFor(app: string): Stage[] {
  const vars: Record<string, string> = { ...globals, APP: app };
  const chain: Stage[] = [];
  let stage: Stage | undefined = finalStage;
  while (stage) {
    if (chain.includes(stage)) throw new Error(`stage ${stage.name} is built from itself`);
    chain.unshift(stage);
    const from: string = stage.from.replace(/\$\{?(\w+)\}?/g, (_m, v: string) => vars[v] ?? '');
    stage = stages.find((s): boolean => s.name === from);
  }
  return chain;
}

const instructionsOf = (chain: Stage[], keyword: string): Instruction[] =>
  chain.flatMap((s) => s.instructions.filter((i) => i.keyword === keyword));
const last = <T>(list: T[]): T | undefined => list[list.length - 1];

function effectiveEnv(chain: Stage[]): Record<string, string> {
  return Object.assign({}, ...instructionsOf(chain, 'ENV').map((i) => keyValues(i.args)));
}

function isNonRootUser(user: string | undefined): boolean {
  if (!user) return false;
  const name = user.split(':')[0];
  return name !== 'root' && name !== '0' && name !== '';
}

describe('Dockerfile', () => {
  test('declares ARG APP before the first FROM, defaulting to an app, and selects the final stage by it', () => {
    expect(Object.keys(globals)).toContain('APP');
    expect(APPS).toContain(globals.APP);
    expect(finalStage.from).toMatch(/\$\{?APP\}?/);
    expect(finalStage.instructions.some((i) => i.keyword === 'ARG' && i.args.trim().split('=')[0] === 'APP')).toBe(
      true,
    );
  });

  test('builds on the Node.js major that CI runs (.node-version) and engines names (Debian slim)', () => {
    const base = stages[0].from.replace(/\$\{?(\w+)\}?/g, (_m, v: string) => globals[v] ?? '');
    const major = fs.readFileSync(path.join(REPO_ROOT, '.node-version'), 'utf8').trim().split('.')[0];
    expect(base).toMatch(new RegExp(`^node:${major}[.\\d]*-bookworm-slim$`));
    const { engines } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(engines.node).toMatch(new RegExp(`^>=${major}\\.`));
  });

  test('has a build stage (npm ci + npm run build) and a prune stage with production dependencies only', () => {
    const run = (stage: Stage) =>
      stage.instructions
        .filter((i) => i.keyword === 'RUN')
        .map((i) => i.args)
        .join('\n');
    expect(run(stageNamed('build'))).toMatch(/npm ci\b/);
    expect(run(stageNamed('build'))).toMatch(/npm run build\b/);
    expect(run(stageNamed('prune'))).toMatch(/npm ci\b.*--omit=dev/);
    expect(run(stageNamed('prune'))).not.toMatch(/npm run build/);
  });

  test('the runtime ships dist/, production node_modules, package.json, tsconfig.base.json and tools/runtime', () => {
    const copies = instructionsOf(chainFor('identity'), 'COPY').map((i) => i.args);
    expect(copies).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--from=prune \S*node_modules \S*node_modules$/),
        expect.stringMatching(/^--from=build \S*dist \S*dist$/),
        expect.stringMatching(/\bpackage\.json\b.*\s\S+$/),
        expect.stringMatching(/\btsconfig\.base\.json\b/),
        expect.stringMatching(/^tools\/runtime\s/),
      ]),
    );
    // Dev dependencies (compiler, test tools) never reach the image.
    expect(copies.filter((c) => /--from=build\b.*node_modules/.test(c))).toEqual([]);
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.build.json', RUNNER]) {
      expect(fs.existsSync(path.join(REPO_ROOT, file))).toBe(true);
    }
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    expect(pkg.scripts?.build).toBeDefined();
  });

  test.each(APPS)('APP=%s: final image runs as a non-root USER declared in the final stage', (app) => {
    const users = finalStage.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args.trim());
    expect(users.length).toBeGreaterThan(0);
    expect(isNonRootUser(last(users))).toBe(true);
    // Nothing later in the chain switches back (the final stage is last, so its USER wins).
    expect(isNonRootUser(last(instructionsOf(chainFor(app), 'USER'))?.args.trim())).toBe(true);
    // Numeric, so Kubernetes can verify runAsNonRoot without a runAsUser.
    expect(last(users)).toMatch(/^[1-9]\d*(:\d+)?$/);
  });

  test.each(APPS)('APP=%s: production mode, its port, and its own entry point', (app) => {
    const chain = chainFor(app);
    expect(chain.map((s) => s.name)).toContain(`app-${app}`);
    const env = effectiveEnv(chain);
    expect(env.NODE_ENV).toBe('production');
    expect(env.PORT).toBe(String(APP_PORTS[app]));
    expect(
      Object.keys(env).filter((k) => !KNOWN_VARIABLES.has(k) && !k.startsWith('NPM_CONFIG_') && k !== 'APP'),
    ).toEqual([]);
    expect(instructionsOf(chain, 'EXPOSE').map((i) => i.args.trim())).toEqual([String(APP_PORTS[app])]);
    const cmd = last(instructionsOf(chain, 'CMD'));
    expect(JSON.parse(cmd?.args ?? 'null')).toEqual(['node', ...nodeFlagsFor(appEntry(app)), RUNNER, appEntry(app)]);
  });

  test.each(APPS)('APP=%s: HEALTHCHECK asks /health/live with node (no curl in slim images) on PORT', (app) => {
    const healthchecks = instructionsOf(chainFor(app), 'HEALTHCHECK');
    expect(healthchecks).toHaveLength(1);
    const args = healthchecks[0].args;
    const command = JSON.parse(args.slice(args.indexOf('CMD') + 3).trim()) as string[];
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    expect(command[2]).toContain('/health/live');
    expect(command[2]).toContain('process.env.PORT');
    expect(args).not.toMatch(/curl|wget/);
    expect(args).toMatch(/--timeout=\d+s/);
  });

  test('has one stage per app and never switches back to root', () => {
    expect(stages.filter((s) => s.name?.startsWith('app-')).map((s) => s.name)).toEqual(APPS.map((a) => `app-${a}`));
    const rootUsers = stages
      .flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'USER' && !isNonRootUser(i.args.trim()));
    expect(rootUsers).toEqual([]);
  });
});

describe('.dockerignore', () => {
  const patterns = fs
    .readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  test('keeps generated, local and secret files out of the build context', () => {
    const covers = (name: string) => patterns.some((p) => p === name || p === `**/${name}` || p === `${name}/`);
    for (const name of ['node_modules', 'dist', '.data', '.git', '.nx', 'coverage', '.env'])
      expect({ name, excluded: covers(name) }).toEqual({ name, excluded: true });
  });

  test('keeps what the build needs in the context', () => {
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'tsconfig.build.json',
      'apps',
      'libs',
      'tools',
    ];
    for (const name of needed)
      expect(patterns.filter((p) => p === name || p === `${name}/` || p === '*' || p === '**')).toEqual([]);
    expect(patterns.filter((p) => p.startsWith('!'))).toEqual([]);
  });
});
