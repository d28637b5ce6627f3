import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Processes that spin on `count` cores until stopped: a machine busy with something else while
 * the services start (as `npm start` is, starting its other processes).
 */
export function burnCpu(count: number): { stop(): Promise<void> } {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++)
    children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', env: { PATH: '' } }));
  return {
    stop: () =>
      Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGKILL');
            }),
        ),
      ).then(() => undefined),
  };
}
