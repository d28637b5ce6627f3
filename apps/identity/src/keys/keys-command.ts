/**
 * Signing key administration (see cli.ts): list the keys, stage the next key of a use (published
 * in the JWKS, not signing yet), rotate (the staged key, or a new one, becomes the active key; the
 * previous one stays published for a while). Runs against the global (identity) database.
 */
import { IsString, MinLength } from 'class-validator';
import type { DataSource } from 'typeorm';
import { BaseEnv, DEMO_KEY_ENCRYPTION_KEY, parseCommandLine, RefuseInProduction, Secret } from '@edu/config';
import { databaseCommandConfig, withCommandDatabase, type CliOutput, type SigningKeyUse } from '@edu/persistence';
import { KeyEncryption, SigningKeyStore, type SigningKeyInfo } from '@edu/signing';

export type { CliOutput } from '@edu/persistence';

/** What the key commands read from the environment: the database and the key that encrypts private keys at rest. */
export class KeysCliEnv extends BaseEnv {
  @Secret()
  @IsString()
  @MinLength(32)
  @RefuseInProduction(DEMO_KEY_ENCRYPTION_KEY)
  KEY_ENCRYPTION_KEY = DEMO_KEY_ENCRYPTION_KEY;
}

const USES: readonly SigningKeyUse[] = ['webhook', 'access-token', 'oidc', 'saml'];
const COMMANDS = ['list', 'stage', 'rotate'] as const;
type Command = (typeof COMMANDS)[number];

export const KEYS_USAGE = [
  'usage: npm run keys:list [-- --use webhook|access-token|oidc|saml]',
  '       npm run keys:stage -- --use webhook|access-token|oidc|saml',
  '       npm run keys:rotate -- --use webhook|access-token|oidc|saml [--keep-published 24h]',
].join('\n');

/** The JWKS answer's `Cache-Control: max-age`: how long a verifier may keep a copy without asking again. */
export const JWKS_MAX_AGE_SECONDS = 300;
/** How long a staged key should have been published before it signs: twice the JWKS max-age, for caches that round up. */
export const STAGE_AT_LEAST_SECONDS = 2 * JWKS_MAX_AGE_SECONDS;
/** The shortest publication of a retired key that outlives what it signed (`0` is allowed: an emergency removal). */
const SAFE_KEEP_SECONDS: Record<SigningKeyUse, { seconds: number; why: string }> = {
  // Access tokens live ACCESS_TOKEN_TTL_SECONDS (default 3600); signers cache the active key 60 s.
  'access-token': {
    seconds: 3600 + 60,
    why: 'access tokens it signed stay valid for up to ACCESS_TOKEN_TTL_SECONDS (default 1 h)',
  },
  // Webhook tokens expire 300 s after signing; dispatchers cache the active key 60 s.
  // ID tokens and JWT access tokens of sign-in live 1 h (ACCESS_TOKEN_TTL_SECONDS); the provider reloads its key within 60 s.
  oidc: { seconds: 3600 + 60, why: 'ID tokens and sign-in access tokens it signed stay valid for up to 1 h' },
  // SAML assertions are valid 5 min (NotOnOrAfter); the identity provider reloads its key within 60 s.
  saml: { seconds: 300 + 60, why: 'SAML assertions it signed are accepted for up to 5 min' },
  webhook: {
    seconds: 300 + 60,
    why: 'deliveries signed with it carry exp = iat + 300 s, and dispatchers keep signing with it for up to 60 s',
  },
};

/** `24h`, `30m`, `90s`, `7d`, `500ms` or `0` → milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (n !== 0 && !m[2]) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms'] as number;
  return n * unit;
}

function humanSeconds(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

interface Parsed {
  command: Command;
  use?: SigningKeyUse;
  keepMs: number;
}

const OPTIONS = { use: { type: 'string' }, 'keep-published': { type: 'string' } } as const;

function parse(args: string[]): Parsed | string {
  if (!COMMANDS.includes(args[0] as Command)) return `unknown command ${JSON.stringify(args[0] ?? '')}`;
  const command = args[0] as Command;
  const parsed = parseCommandLine({ args: args.slice(1), options: OPTIONS });
  if (typeof parsed === 'string') return parsed;
  const { use, 'keep-published': keep } = parsed.values;
  const out: Parsed = { command, keepMs: 24 * 3_600_000 };
  if (use !== undefined) {
    if (!USES.includes(use as SigningKeyUse))
      return `--use must be webhook, access-token, oidc or saml (got ${JSON.stringify(use)})`;
    out.use = use as SigningKeyUse;
  }
  if (keep !== undefined) {
    if (command !== 'rotate') return `unexpected argument "--keep-published" for ${command}`;
    const ms = parseDuration(keep);
    if (ms === undefined)
      return `--keep-published must be a duration such as 24h, 90m or 0 (got ${JSON.stringify(keep)})`;
    out.keepMs = ms;
  }
  if (command !== 'list' && !out.use)
    return `${command} needs --use webhook, --use access-token, --use oidc or --use saml`;
  return out;
}

function describeKey(k: SigningKeyInfo): string {
  const state =
    k.status === 'next'
      ? 'next     published, not signing yet'
      : k.status === 'active'
        ? 'active   signing'
        : `retired  published until ${k.publishUntil?.toISOString()}`;
  return `  ${k.use.padEnd(12)} ${k.kid.padEnd(48)} ${state}   (created ${k.createdAt.toISOString()})`;
}

/** Refuses a database that receives the identity data by replication: keys are made in the global one. */
async function refuseReplica(ds: DataSource): Promise<string | undefined> {
  const subs: { subname: string }[] = await ds.query(
    `SELECT subname FROM pg_subscription WHERE subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  if (subs.length === 0) return undefined;
  return `this database subscribes to the identity replication (${subs.map((s) => s.subname).join(', ')}): signing keys are staged and rotated in the global identity database, and reach the regions by replication`;
}

/** The key commands as a function (exit code), so tests can run them in-process. */
export async function runKeysCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const parsed = parse(args);
  if (typeof parsed === 'string') {
    out.error(parsed);
    out.error(KEYS_USAGE);
    return 2;
  }
  const config = databaseCommandConfig(KeysCliEnv, env);
  if (typeof config === 'string') {
    out.error(config);
    return 2;
  }
  return withCommandDatabase(config.DATABASE_URL, 'edu-keys', async (ds) => {
    const store = new SigningKeyStore(ds, new KeyEncryption(config.KEY_ENCRYPTION_KEY), 0);
    if (parsed.command === 'list') return listKeys(store, parsed.use, out);
    const use = parsed.use as SigningKeyUse;
    const replica = await refuseReplica(ds);
    if (replica) {
      out.error(`Refused: ${replica}.`);
      return 1;
    }
    try {
      await store.checkDecryptable(use);
    } catch {
      out.error(
        `Refused: KEY_ENCRYPTION_KEY does not decrypt the active ${use} key. Use the value the identity service (and the webhook dispatcher) run with, or they could not use the new key.`,
      );
      return 1;
    }
    if (parsed.command === 'stage') return stageKey(store, use, out);
    return rotateKey(store, use, parsed.keepMs, out);
  });
}

async function listKeys(store: SigningKeyStore, use: Parsed['use'], out: CliOutput): Promise<number> {
  const keys = await store.list(use);
  const shown = keys.filter((k) => k.published);
  out.log(
    shown.length
      ? 'Signing keys in the JWKS:'
      : 'No signing keys yet: the identity service creates them when it starts.',
  );
  for (const k of shown) out.log(describeKey(k));
  const hidden = keys.length - shown.length;
  if (hidden) out.log(`  (${hidden} retired key${hidden === 1 ? '' : 's'} no longer published)`);
  return 0;
}

/** Activates the staged key (or a new one), retiring the active one; warns when that was hasty. */
async function rotateKey(store: SigningKeyStore, use: SigningKeyUse, keepMs: number, out: CliOutput): Promise<number> {
  const before = await store.list(use);
  const previous = before.find((k) => k.status === 'active');
  const staged = before.find((k) => k.status === 'next');
  const kid = await store.rotate(use, keepMs);
  out.log(`Rotated the ${use} key: ${kid} is active${staged ? ' (the staged key)' : ' (new)'}.`);
  if (previous) {
    out.log(
      keepMs === 0
        ? `${previous.kid} is retired and no longer published: tokens it signed are refused from now on.`
        : `${previous.kid} is retired and stays published until ${new Date(Date.now() + keepMs).toISOString()}.`,
    );
  }
  out.log('Services pick the new key within 60 s (their cache of the active key).');
  if (!staged) {
    out.error(
      `Warning: no key was staged, so ${kid} signs from the moment it is published. Verifiers that refetch the JWKS for an unknown kid (jose createRemoteJWKSet) accept it at once; ones that keep a cached JWKS for its max-age (${JWKS_MAX_AGE_SECONDS} s) refuse its tokens until then. Stage first: npm run keys:stage -- --use ${use}`,
    );
  } else {
    const publishedFor = (Date.now() - staged.createdAt.getTime()) / 1000;
    if (publishedFor < STAGE_AT_LEAST_SECONDS) {
      out.error(
        `Warning: the staged key was published only ${humanSeconds(publishedFor)} ago (at least ${humanSeconds(STAGE_AT_LEAST_SECONDS)} is advised): verifiers that keep a cached JWKS for its max-age (${JWKS_MAX_AGE_SECONDS} s) without refetching for an unknown kid refuse its tokens until their copy expires.`,
      );
    }
  }
  const safe = SAFE_KEEP_SECONDS[use];
  if (previous && keepMs > 0 && keepMs < safe.seconds * 1000) {
    out.error(
      `Warning: --keep-published ${humanSeconds(keepMs / 1000)} is short: ${safe.why}; keep it published for at least ${humanSeconds(safe.seconds)}.`,
    );
  }
  return 0;
}

/** Publishes a next key without signing with it yet (or names the one already staged). */
async function stageKey(store: SigningKeyStore, use: SigningKeyUse, out: CliOutput): Promise<number> {
  const staged = await store.stage(use);
  out.log(
    staged.created
      ? `Staged ${use} key ${staged.kid}: published in the ${use === 'saml' ? 'SAML metadata' : 'JWKS'}, not signing yet.`
      : `A ${use} key is already staged: ${staged.kid} (published since ${staged.createdAt.toISOString()}).`,
  );
  out.log(
    `Activate it with \`npm run keys:rotate -- --use ${use}\` once it has been published for at least ${humanSeconds(STAGE_AT_LEAST_SECONDS)} (verifiers may cache the JWKS for ${JWKS_MAX_AGE_SECONDS} s).`,
  );
  return 0;
}
