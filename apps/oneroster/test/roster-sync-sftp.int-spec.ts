import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { listeningSocket } from '@edu/testing';
import { SftpPackageWatcher } from '../src/sources/worker/sftp/package-watcher';
import { SftpServer } from '../src/sources/worker/sftp/sftp-server';
import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { csvText, districtFixture, FIXTURE_FILES, manifestText } from './support/roster-fixture';
import { call, operatorToken } from './support/sources';
import { sftpBatch, sshCommand, sshKeyPair } from './support/sftp-client';
import { fullRead, startWorker, syncOutcome } from './support/sync-world';

const QUEUE = `{rs-sftp-${randomUUID().slice(0, 8)}}`;

/** The district fixture as a package folder (optionally with a broken users row). */
function packageFolder(o: { brokenUser?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sftp-pkg-'));
  writeFileSync(path.join(dir, 'manifest.csv'), manifestText());
  for (const file of FIXTURE_FILES) {
    let text = csvText(districtFixture(), file, { withTombstones: false });
    if (o.brokenUser && file === 'users')
      text = text.replace(/\n([^,\n]+),([^,\n]*),([^,\n]*),true,/, '\n$1,$2,$3,maybe,');
    writeFileSync(path.join(dir, `${file}.csv`), text);
  }
  return dir;
}

/**
 * The SFTP drop, driven with Debian's OpenSSH `sftp` client: a package uploaded to a school's
 * folder is imported and archived with its report; a package with an error imports nothing and
 * its report names the row; wrong credentials are refused and then rate-limited; paths outside
 * the folder, shells and commands are refused.
 */
describe('roster syncs from an SFTP drop', () => {
  const h = new RosterHarness();
  let worker: INestApplication;
  let op: string;
  let t: TenantSetup;
  let port: number;
  let root: string;
  let keys: { file: string; publicKey: string };
  const user = `school-${randomUUID().slice(0, 6)}`;
  const password = 'correct horse battery staple';

  beforeAll(async () => {
    await h.start({ REDIS_URL: process.env.REDIS_URL as string, QUEUE_PREFIX: QUEUE });
    const dir = mkdtempSync(path.join(tmpdir(), 'sftp-test-'));
    root = path.join(dir, 'root');
    keys = await sshKeyPair(dir, 'school');
    const host = await sshKeyPair(dir, 'host');
    worker = await startWorker(h, {
      QUEUE_PREFIX: QUEUE,
      ROSTER_SFTP_ROOT: root,
      ROSTER_SFTP_HOST_KEY_FILE: host.file,
      ROSTER_SFTP_SCAN_INTERVAL_MS: '200',
      ROSTER_SFTP_FAILURES_PER_USER_ADDRESS: '3',
    });
    // The endpoint serves a socket bound here, so its port is held from the start.
    const socket = await listeningSocket();
    port = socket.port;
    await worker.get(SftpServer).serve(socket.handOver());
    worker.get(SftpPackageWatcher).start();
    op = await operatorToken(h.issuer);
    t = await h.tenant({ rootOrg: 'org-d1' });
    await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources`, op, {
      type: 'sftp',
      username: user,
      password,
      public_keys: [keys.publicKey],
      stable_seconds: 1,
    }).expect(201);
  });
  afterAll(async () => {
    await worker?.close();
    await h.stop();
  });

  /** The newest sync of the tenant once it ended. */
  const nextSync = async (after: string[]): Promise<Record<string, unknown>> => {
    for (let i = 0; i < 600; i++) {
      const { syncs } = (await call(h.app, 'get', `/admin/tenants/${t.tenantId}/roster-syncs`, op).expect(200)).body;
      const fresh = syncs.find((s: { id: string }) => !after.includes(s.id));
      if (fresh) return syncOutcome(h, op, t.tenantId, fresh.id);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no sync started');
  };
  /**
   * The archive folder of a sync once its report is in it: the worker archives the package and
   * writes the report after the sync has ended (it reports the ended sync), so a moment later.
   */
  const archivedReport = async (archive: string, syncId: string): Promise<string> => {
    for (let i = 0; i < 300; i++) {
      const folder = existsSync(archive) ? readdirSync(archive).find((n) => n.endsWith(`-${syncId}`)) : undefined;
      if (folder && existsSync(path.join(archive, folder, 'report.json'))) return folder;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`sync ${syncId}: no archived report after 30 s`);
  };
  const syncIds = async () =>
    (await call(h.app, 'get', `/admin/tenants/${t.tenantId}/roster-syncs`, op).expect(200)).body.syncs.map(
      (s: { id: string }) => s.id,
    );

  it('imports an uploaded package and archives it with its report (password sign-in)', async () => {
    const before = await syncIds();
    const pkg = packageFolder();
    const res = await sftpBatch({ port, user, password, cwd: pkg }, ['put users.csv', 'put *.csv', 'ls']);
    expect({ code: res.code, output: res.code === 0 ? '' : res.output }).toEqual({ code: 0, output: '' });
    const sync = await nextSync(before);
    expect(sync).toMatchObject({ status: 'succeeded', trigger: 'sftp', source_type: 'sftp' });
    const token = await h.token(t, [SCOPE.roster]);
    expect((await h.get('users', token).expect(200)).body.users.length).toBeGreaterThan(0);
    const archive = path.join(root, user, 'archive');
    const folder = await archivedReport(archive, String(sync.id));
    expect(JSON.parse(readFileSync(path.join(archive, folder, 'report.json'), 'utf8'))).toMatchObject({
      id: sync.id,
      status: 'succeeded',
    });
    expect(existsSync(path.join(archive, folder, 'users.csv'))).toBe(true);
    expect(readdirSync(path.join(root, user)).filter((n) => n.endsWith('.csv'))).toEqual([]);
    // The school sees its report over SFTP too.
    const listing = await sftpBatch({ port, user, keyFile: keys.file }, [
      `ls archive/${folder}`,
      `get archive/${folder}/report.json ${pkg}/report.json`,
    ]);
    expect(listing.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(pkg, 'report.json'), 'utf8')).status).toBe('succeeded');
  });

  it('a package with an error imports nothing and its report names the row', async () => {
    const before = await syncIds();
    const read = async () => fullRead(h, await h.token(t, [SCOPE.roster, SCOPE.demographics]), '/ims/oneroster/v1p1');
    const data = await read();
    const pkg = packageFolder({ brokenUser: true });
    expect((await sftpBatch({ port, user, keyFile: keys.file, cwd: pkg }, ['put *.csv'])).code).toBe(0);
    const sync = await nextSync(before);
    expect(sync.status).toBe('failed');
    expect(sync.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: 'users.csv', line: 2, column: 'enabledUser' })]),
    );
    expect(await read()).toEqual(data);
  });

  it('refuses paths outside the folder, and shells and commands', async () => {
    const pkg = packageFolder();
    const res = await sftpBatch({ port, user, keyFile: keys.file, cwd: pkg }, [
      '-put orgs.csv ../escaped.csv',
      '-put orgs.csv ../../escaped.csv',
      '-get ../../../../../etc/passwd passwd',
      '-ls ..',
      '-cd ../..',
      '-symlink archive link',
    ]);
    expect(res.output).toContain('dest open "/../escaped.csv": Permission denied');
    expect(res.output).toContain('dest open "/../../escaped.csv": Permission denied');
    expect(res.output).toContain('realpath /../..: outside your folder');
    expect(res.output).toContain('Operation unsupported');
    expect(existsSync(path.join(root, 'escaped.csv'))).toBe(false);
    expect(existsSync(path.join(path.dirname(root), 'escaped.csv'))).toBe(false);
    expect(existsSync(path.join(pkg, 'passwd'))).toBe(false);
    expect((await sshCommand({ port, user, keyFile: keys.file }, 'cat /etc/passwd')).code).not.toBe(0);
  });

  it('refuses wrong credentials, then the right ones too from that address for a while', async () => {
    const other = `limited-${randomUUID().slice(0, 6)}`;
    await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources`, op, {
      type: 'sftp',
      username: other,
      password,
    }).expect(201);
    expect((await sftpBatch({ port, user: other, password }, ['ls'])).code).toBe(0);
    expect((await sftpBatch({ port, user: 'nobody-here', password }, ['ls'])).code).not.toBe(0);
    for (let i = 0; i < 3; i++)
      expect((await sftpBatch({ port, user: other, password: 'wrong password!' }, ['ls'])).code).not.toBe(0);
    expect((await sftpBatch({ port, user: other, password }, ['ls'])).code).not.toBe(0);
    const metrics = await import('supertest').then((st) => st.default(worker.getHttpServer()).get('/metrics'));
    expect(metrics.text).toMatch(/roster_sftp_logins_total\{outcome="rate_limited"\} [1-9]/);
  });
});
