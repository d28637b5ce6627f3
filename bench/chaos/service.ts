/**
 * One service process the chaos bench can kill, freeze and restart where it was: the same
 * compiled entry, environment and port (a restarted process serves a new socket on the old port,
 * so clients keep their URLs). It remembers when it was down, so a refused connection to it then
 * is not held against the platform.
 */
import { listeningSocket, startChild, type ListeningSocket, type ServerProcess } from '../common/processes';

export interface DownWindow {
  from: number;
  /** Ready again (undefined while still down). */
  to?: number;
}

export class ChaosService {
  readonly downs: DownWindow[] = [];
  /** What earlier processes of this service printed (a killed one's last lines say what it was doing). */
  private earlier = '';

  private constructor(
    readonly name: string,
    private readonly root: string,
    private readonly entry: string,
    private readonly env: NodeJS.ProcessEnv,
    private process: ServerProcess,
  ) {}

  /** Starts `entry` on `socket` (bound by the caller: every URL is known before anything starts). */
  static async start(
    root: string,
    name: string,
    entry: string,
    env: NodeJS.ProcessEnv,
    socket: ListeningSocket,
  ): Promise<ChaosService> {
    return new ChaosService(name, root, entry, env, await startChild(root, entry, env, { socket }));
  }

  get url(): string {
    return this.process.url;
  }

  get pid(): number {
    return this.process.child.pid as number;
  }

  /** SIGKILL, resolved once the process is gone: from then on its port refuses connections. */
  async kill(): Promise<void> {
    this.downs.push({ from: Date.now() });
    await this.process.stop('SIGKILL');
    this.earlier += `${this.process.output()}\n--- SIGKILL at ${new Date().toISOString()} ---\n`;
  }

  /** A new process on the same port, resolved once it answers its readiness check. */
  async restart(): Promise<void> {
    const socket = await listeningSocket(this.process.port);
    this.process = await startChild(this.root, this.entry, this.env, { socket });
    const open = this.downs.at(-1);
    if (open && open.to === undefined) open.to = Date.now();
  }

  /** SIGSTOP: the process keeps its sockets but answers nothing until resume(). */
  pause(): void {
    process.kill(this.pid, 'SIGSTOP');
  }

  resume(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  /** Whether the process was down (killed, not yet ready again) at `at`, with a little slack for answers in flight. */
  wasDownAt(at: number, slackMs = 1_000): boolean {
    return this.downs.some((d) => at >= d.from - slackMs && at <= (d.to ?? Infinity) + slackMs);
  }

  /** Everything its processes printed, oldest first. */
  output(): string {
    return this.earlier + this.process.output();
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }
}
