import { readFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import type { AddressInfo, ListenOptions, Server as NetServer } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Server, utils, type AuthContext, type Connection, type ParsedKey } from 'ssh2';
import type { RosterSourceEntity, SftpSettings } from '@edu/persistence';
import { RosterSourcesRepository } from '../../roster-sources.repository';
import { hashSftpPassword, verifySftpPassword } from '../../source-secrets';
import { SOURCES_SETTINGS } from '../../sources-settings.token';
import { SyncMetrics } from '../sync-metrics';
import type { RosterSyncWorkerEnv } from '../worker.env';
import { Jail } from './jail';
import { LoginLimiter } from './login-limiter';
import { serveSftp } from './sftp-session';
import { SftpFolders } from './sftp-folders';

/** The SSH host key: from configuration; outside production a throwaway one when none is configured. */
export function hostKeyOf(env: RosterSyncWorkerEnv): { key: string | Buffer; ephemeral: boolean } {
  if (env.ROSTER_SFTP_HOST_KEY) return { key: env.ROSTER_SFTP_HOST_KEY, ephemeral: false };
  if (env.ROSTER_SFTP_HOST_KEY_FILE) return { key: readFileSync(env.ROSTER_SFTP_HOST_KEY_FILE), ephemeral: false };
  if (env.NODE_ENV === 'production')
    throw new Error(
      'ROSTER_SFTP_HOST_KEY or ROSTER_SFTP_HOST_KEY_FILE is required for the SFTP endpoint (or ROSTER_SFTP_PORT=0)',
    );
  return { key: utils.generateKeyPairSync('ed25519').private, ephemeral: true };
}

function keyMatches(allowed: string[], offered: { algo: string; data: Buffer }): ParsedKey | undefined {
  for (const line of allowed) {
    const parsed = utils.parseKey(line);
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    if (key && !(key instanceof Error) && key.type === offered.algo && key.getPublicSSH().equals(offered.data))
      return key;
  }
  return undefined;
}

/**
 * The SFTP endpoint (ssh2): a user per `sftp` source (its user name, password and/or public keys),
 * each jailed to its own folder; wrong credentials are counted and, past the limits, refused for
 * a while; shells, commands and forwarding are refused. Packages dropped there are taken by the
 * package watcher.
 */
@Injectable()
export class SftpServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SftpServer');
  private server?: Server;
  private readonly limiter: LoginLimiter;
  private readonly clients = new Set<Connection>();
  /** A hash to spend time on for unknown users, so timing does not tell which names exist. */
  private readonly decoy = hashSftpPassword('decoy password not used by anyone');

  constructor(
    @Inject(SOURCES_SETTINGS) private readonly env: RosterSyncWorkerEnv,
    private readonly sources: RosterSourcesRepository,
    private readonly folders: SftpFolders,
    private readonly metrics: SyncMetrics,
  ) {
    this.limiter = new LoginLimiter({
      perUserAddress: env.ROSTER_SFTP_FAILURES_PER_USER_ADDRESS,
      perAddress: env.ROSTER_SFTP_FAILURES_PER_ADDRESS,
      windowMs: env.ROSTER_SFTP_FAILURE_WINDOW_SECONDS * 1000,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.env.ROSTER_SFTP_LISTEN_FD !== undefined) await this.serve({ fd: this.env.ROSTER_SFTP_LISTEN_FD });
    else if (this.env.ROSTER_SFTP_PORT !== 0)
      await this.serve({ port: this.env.ROSTER_SFTP_PORT, host: this.env.ROSTER_SFTP_BIND });
  }

  /** Serves SFTP on `target`: a port and address, an inherited socket (`{ fd }`) or a listening server handed over. */
  async serve(target: ListenOptions | { fd: number } | NetServer): Promise<void> {
    const { key, ephemeral } = hostKeyOf(this.env);
    if (ephemeral)
      this.logger.warn('No ROSTER_SFTP_HOST_KEY configured: using a throwaway host key (development only)');
    await fs.mkdir(this.folders.root, { recursive: true });
    this.server = new Server({ hostKeys: [key], ident: 'edu-roster-sftp' }, (client, info) =>
      this.connection(client, info.ip),
    );
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(target, () => resolve());
    });
    const { address, port } = this.server.address() as AddressInfo;
    this.logger.log(`SFTP endpoint listening on ${address}:${port}`);
  }

  async onModuleDestroy(): Promise<void> {
    for (const c of this.clients) c.end();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private connection(client: Connection, address: string): void {
    this.clients.add(client);
    let source: RosterSourceEntity | undefined;
    client.on('authentication', (ctx) => {
      void this.authenticate(ctx, address).then(
        (s) => {
          if (s) source = s;
        },
        (err) => {
          this.logger.error({ err }, 'SFTP sign-in check failed');
          ctx.reject();
        },
      );
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => {
          const jail = new Jail(this.folders.user(source!.sftpUsername!));
          serveSftp(acceptSftp(), jail, (path) =>
            this.logger.warn(
              { username: source!.sftpUsername, address, path },
              'SFTP path outside the user folder refused',
            ),
          );
        });
        for (const refused of ['exec', 'shell', 'pty', 'env', 'subsystem-other'])
          session.on(refused as 'exec', (_accept, reject) => reject?.());
      });
      for (const refused of ['tcpip', 'openssh.streamlocal'])
        client.on(refused as 'tcpip', (_accept, reject) => reject?.());
      client.on('request', (_accept, reject) => reject?.());
    });
    client.on('error', () => undefined);
    client.on('close', () => this.clients.delete(client));
  }

  /** Accepts or rejects one authentication attempt; resolves with the source on success. */
  private async authenticate(ctx: AuthContext, address: string): Promise<RosterSourceEntity | undefined> {
    const user = ctx.username;
    if (this.limiter.blocked(user, address)) {
      this.metrics.sftpLogins.inc({ outcome: 'rate_limited' });
      ctx.reject([]);
      return undefined;
    }
    if (ctx.method !== 'password' && ctx.method !== 'publickey') {
      ctx.reject(['password', 'publickey']);
      return undefined;
    }
    const source = await this.sources.sftpSource(user);
    await fs.mkdir(this.folders.user(user), { recursive: true }).catch(() => undefined);
    let ok = false;
    if (ctx.method === 'password') {
      const verified = await verifySftpPassword(ctx.password, source?.sftpPasswordHash ?? (await this.decoy));
      ok = verified && !!source?.sftpPasswordHash;
    } else {
      const key = source ? keyMatches((source.settings as SftpSettings).public_keys ?? [], ctx.key) : undefined;
      if (key && !ctx.signature) {
        ctx.accept(); // the client asks whether the key would do; it signs next
        return undefined;
      }
      ok = !!key && !!ctx.signature && !!ctx.blob && key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true;
      if (!key) {
        ctx.reject(['password', 'publickey']); // an unknown key is not a wrong guess: clients try several
        return undefined;
      }
    }
    if (!ok) {
      this.limiter.failed(user, address);
      this.metrics.sftpLogins.inc({ outcome: 'refused' });
      ctx.reject(['password', 'publickey']);
      return undefined;
    }
    this.metrics.sftpLogins.inc({ outcome: 'ok' });
    ctx.accept();
    return source!;
  }
}
