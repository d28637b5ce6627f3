/** The faults, injected one after another: each breaks something and lifts it again (or lets it restart). */
import { sleep } from '../soak/http';
import { killImport, type ImportOutcome, type PreparedImport } from './import-fault';
import { killUpload } from './upload-fault';
import { SERVICES, type ChaosStack, type ServiceName } from './stack';

export interface FaultContext {
  readonly stack: ChaosStack;
  readonly databaseUrl: string;
  readonly importPackage: PreparedImport;
  /** The same kind of package for the operator upload, into a tenant of its own. */
  readonly uploadPackage: PreparedImport;
  readonly operator: { id: string; secret: string };
}

export interface Injected {
  /** When the fault was lifted: the restart began, the process was resumed. */
  liftedAt: number;
  /** When every readiness check was green again, when the fault measured it itself (its checks took longer). */
  readyAt?: number;
  import?: ImportOutcome;
}

export interface Fault {
  readonly name: string;
  /** Breaks and lifts; resolves once the fault is lifted (a restarted process is ready). */
  inject(ctx: FaultContext): Promise<Injected>;
}

/** How long a frozen process stays frozen. */
export const FREEZE_MS = 10_000;

function killService(name: ServiceName): Fault {
  return {
    name: `SIGKILL ${name}`,
    async inject({ stack }) {
      await stack.services[name].kill();
      const liftedAt = Date.now();
      await stack.services[name].restart();
      return { liftedAt };
    },
  };
}

function freeze(name: string, pause: (s: ChaosStack) => void, resume: (s: ChaosStack) => void): Fault {
  return {
    name: `SIGSTOP ${name} ${FREEZE_MS / 1000} s`,
    async inject({ stack }) {
      pause(stack);
      await sleep(FREEZE_MS);
      resume(stack);
      return { liftedAt: Date.now() };
    },
  };
}

export const FAULTS: readonly Fault[] = [
  ...SERVICES.map(killService),
  {
    name: 'SIGKILL CSV import',
    async inject({ stack, databaseUrl, importPackage }) {
      const outcome = await killImport(stack.root, databaseUrl, importPackage);
      return { liftedAt: Date.now(), import: outcome };
    },
  },
  {
    name: 'SIGKILL oneroster during an operator import',
    async inject({ stack, databaseUrl, uploadPackage, operator }) {
      const o = { identityUrl: stack.urls.identity, databaseUrl, operator };
      const { liftedAt, readyAt, outcome } = await killUpload(o, stack, uploadPackage);
      return { liftedAt, readyAt, import: outcome };
    },
  },
  {
    name: 'PostgreSQL restart',
    async inject({ stack }) {
      const stoppedAt = await stack.postgres.restart();
      return { liftedAt: stoppedAt };
    },
  },
  {
    name: 'Redis restart',
    async inject({ stack }) {
      await stack.redis.restart();
      return { liftedAt: Date.now() };
    },
  },
  {
    name: 'Redis FLUSHALL',
    async inject({ stack }) {
      await stack.redis.flushAll();
      return { liftedAt: Date.now() };
    },
  },
  freeze(
    'webhook-dispatcher',
    (s) => s.services.dispatcher.pause(),
    (s) => s.services.dispatcher.resume(),
  ),
  freeze(
    'PostgreSQL',
    (s) => s.postgres.pause(),
    (s) => s.postgres.resume(),
  ),
];
