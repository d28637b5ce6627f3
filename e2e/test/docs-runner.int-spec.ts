import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listeningSocket } from '@edu/testing';
import { checkK8sBlock } from './docs-k8s';
import { outputMismatch, parseDoc, runDoc, type DocBlock } from './docs-runner';

const md = (...lines: string[]) => lines.join('\n');
const fence = '```';

/** The runner of docs.int-spec.ts itself: it must fail a guide for every kind of mistake. */
describe('docs runner', () => {
  it('reads sh, sh server, sh k8s and text output blocks, and refuses other spellings of commands', () => {
    const doc = parseDoc(
      'guide.md',
      md(
        '# A guide',
        `${fence}sh`,
        'echo one',
        fence,
        '',
        `${fence}text output`,
        'one',
        fence,
        `${fence}sh server`,
        'sleep 60',
        fence,
        `${fence}sh k8s`,
        'kubectl apply -k k8s/base',
        fence,
        `${fence}json`,
        '{}',
        fence,
      ),
    );
    expect(doc.blocks.map((b) => [b.kind, b.code, b.line, b.expected?.text])).toEqual([
      ['run', 'echo one', 2, 'one'],
      ['server', 'sleep 60', 9, undefined],
      ['k8s', 'kubectl apply -k k8s/base', 12, undefined],
    ]);
    expect(() => parseDoc('g.md', md(`${fence}bash`, 'rm -rf /', fence))).toThrow('g.md:1: a `bash` block');
    expect(() => parseDoc('g.md', md(`${fence}console`, '$ ls', fence))).toThrow('g.md:1: a `console` block');
    expect(() => parseDoc('g.md', md(`${fence}sh skip`, 'ls', fence))).toThrow('unknown sh block attribute "skip"');
    expect(() => parseDoc('g.md', md('- a step', `   ${fence}sh`, '   ls', `   ${fence}`))).toThrow(
      'g.md:2: an indented fence',
    );
    expect(() =>
      parseDoc('g.md', md(`${fence}sh`, 'ls', fence, 'Some prose.', `${fence}text output`, 'x', fence)),
    ).toThrow('must directly follow the `sh` block');
    expect(() => parseDoc('g.md', md(`${fence}sh`, 'ls'))).toThrow('never closed');
  });

  it('matches output with … for any text in a line, and a line of … for any lines', () => {
    expect(outputMismatch('a …\nc', 'a b\nc\n')).toBeUndefined();
    expect(outputMismatch('first\n…\nlast', 'first\nx\ny\nlast')).toBeUndefined();
    expect(outputMismatch('first\n…\nlast', 'first\nlast')).toBeUndefined();
    expect(outputMismatch('{"a": …}', '{"a": 1}')).toBeUndefined();
    expect(outputMismatch('a …\nc', 'a b\nd')).toContain('--- got:\na b\nd');
    expect(outputMismatch('only', 'only\nmore')).toBeDefined();
    expect(outputMismatch('x.y', 'xzy')).toBeDefined(); // no regular expression syntax leaks through
  });

  it('runs the blocks in one shell, in order, and names the block that fails with its output', async () => {
    const ok = await runDoc(
      parseDoc(
        'g.md',
        md(
          `${fence}sh`,
          'N=41',
          fence,
          `${fence}sh`,
          'echo "$((N + 1)) $GREETING"',
          fence,
          `${fence}text output`,
          '42 hello',
          fence,
        ),
      ),
      { GREETING: 'hello' },
    );
    expect(ok.failure).toBeUndefined();
    expect(ok.results.map((r) => r.stdout)).toEqual(['', '42 hello\n']);

    // A curl that cannot connect, even inside a pipeline, fails its block and stops the guide.
    const failing = await runDoc(
      parseDoc(
        'g.md',
        md(
          `${fence}sh`,
          'echo before',
          fence,
          '',
          `${fence}sh`,
          'echo partial',
          'curl -sS --fail-with-body http://127.0.0.1:1/ | jq .',
          'echo never',
          fence,
          `${fence}sh`,
          'echo not reached',
          fence,
        ),
      ),
      {},
    );
    expect(failing.ok).toBe(false);
    expect(failing.failure).toMatch(
      /^g\.md:5: the block exited with 7:\necho partial\n[\s\S]*--- stdout:\npartial\n--- stderr:\ncurl: \(7\) Failed to connect/,
    );
    expect(failing.results[2].stdout).toBe('');
    const refused = await runDoc(parseDoc('g.md', md(`${fence}sh`, 'false', 'echo never', fence)), {});
    expect(refused.failure).toMatch(/^g\.md:1: the block exited with 1:/);

    const unset = await runDoc(parseDoc('g.md', md(`${fence}sh`, 'echo "$NOT_SET"', fence)), {});
    expect(unset.failure).toContain('NOT_SET: unbound variable');

    const pipefail = await runDoc(parseDoc('g.md', md(`${fence}sh`, 'false | cat', fence)), {});
    expect(pipefail.ok).toBe(false);

    const syntax = await runDoc(parseDoc('g.md', md(`${fence}sh`, `: "\${X:?it's unset}"`, fence)), {});
    expect(syntax.failure).toMatch(/exited with 2[\s\S]*--- bash \(a syntax error shows here\):/);

    const wrongOutput = await runDoc(
      parseDoc('g.md', md(`${fence}sh`, 'echo 41', fence, `${fence}text output`, '42', fence)),
      {},
    );
    expect(wrongOutput.failure).toMatch(
      /^g\.md:4: the output of the block at line 1 does not match:\nexpected output:\n42\n--- got:\n41/,
    );
  });

  it('starts a server block in the background with the variables set so far, and stops all it started', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docs-runner-'));
    const run = await runDoc(
      parseDoc(
        'g.md',
        md(
          `${fence}sh`,
          'WORD=ready',
          fence,
          `${fence}sh server`,
          'echo "$WORD"; : > "$STARTED"; sleep 30 & wait',
          fence,
          `${fence}sh`,
          'until [ -e "$STARTED" ]; do sleep 0.05; done; echo after',
          fence,
        ),
      ),
      { STARTED: path.join(dir, 'started') },
    );
    rmSync(dir, { recursive: true, force: true });
    expect(run.ok).toBe(true);
    expect(run.servers).toHaveLength(1);
    const [server] = run.servers;
    expect(server.output()).toBe('ready\n');
    await server.stop();
    // The whole process group is gone, the child `sleep` included.
    expect(() => process.kill(-server.pid, 0)).toThrow();
    expect(server.output()).toBe('ready\n');
  });

  it('hands its socket to the server block only: the next block reaches the server through it at once', async () => {
    const socket = await listeningSocket();
    const serve = `node -e "require('node:http').createServer((q, s) => s.end('served')).listen({ fd: +process.env.LISTEN_FD })"`;
    const run = await runDoc(
      parseDoc(
        'g.md',
        md(
          `${fence}sh server`,
          serve,
          fence,
          `${fence}sh`,
          // Held since before the server started: the connection waits for it, no retry needed.
          'curl -sS --max-time 20 "$URL"; echo',
          '[ -e /dev/fd/3 ] && echo "fd 3 inherited" || echo "fd 3 not inherited"',
          fence,
          `${fence}text output`,
          'served',
          'fd 3 not inherited',
          fence,
        ),
      ),
      { URL: socket.url },
      undefined,
      socket,
    );
    await Promise.all(run.servers.map((s) => s.stop()));
    expect(run.failure).toBeUndefined();
  });

  it('checks cluster commands against the rendered manifests', () => {
    const block = (code: string): DocBlock => ({ kind: 'k8s', code, line: 1 });
    expect(
      checkK8sBlock(
        'g.md',
        block(
          'kubectl apply -k k8s/overlays/au-nsw\nkubectl -n edu-au-nsw scale deployment/webhook-dispatcher --replicas=4',
        ),
      ),
    ).toEqual([]);
    expect(checkK8sBlock('g.md', block('kubectl -n edu-au-nsw scale deployment/dispatcher --replicas=4'))).toEqual([
      'g.md:1: `kubectl -n edu-au-nsw scale deployment/dispatcher --replicas=4`: no Deployment dispatcher in namespace edu-au-nsw in any rendered stack',
    ]);
    expect(checkK8sBlock('g.md', block('kubectl apply -k k8s/overlays/nz'))[0]).toContain(
      'k8s/overlays/nz does not render',
    );
    expect(checkK8sBlock('g.md', block('kubectl -n edu-nz get deployment/alerts'))[0]).toContain(
      'no rendered stack has namespace edu-nz',
    );
    expect(
      checkK8sBlock(
        'g.md',
        block(
          "kubectl -n edu-sg create secret generic edu-platform-secrets-sg --from-literal=DATABASE_URL='postgres://x' --from-literal=DB_PASSWORD=x",
        ),
      ),
    ).toEqual([
      "g.md:1: `kubectl -n edu-sg create secret generic edu-platform-secrets-sg --from-literal=DATABASE_URL='postgres://x' --from-literal=DB_PASSWORD=x`: nothing reads the key DB_PASSWORD of Secret edu-platform-secrets-sg (read: DATABASE_URL, REDIS_URL, REPLICATION_SOURCE_URL)",
    ]);
    expect(
      checkK8sBlock('g.md', block('kubectl -n edu-sg create secret generic edu-platform-secrets-au-nsw'))[0],
    ).toContain('no object in namespace edu-sg references a Secret edu-platform-secrets-au-nsw');
    expect(
      checkK8sBlock(
        'g.md',
        block('kubectl kustomize k8s/overlays/sg | kubectl apply -f - -l app.kubernetes.io/name=migration'),
      )[0],
    ).toContain('no object carries the label app.kubernetes.io/name=migration');
    expect(checkK8sBlock('g.md', block('kubectl -n edu-sg port-forward deployment/oneroster 3001:3002'))[0]).toContain(
      'Deployment oneroster has no port 3002',
    );
    expect(checkK8sBlock('g.md', block('helm install edu ./chart'))[0]).toContain(
      'holds kubectl (or kustomize build) commands only',
    );
  });
});
