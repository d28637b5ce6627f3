import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgres, startRedis } from './infra';

/** A server holding a port that accepts connections and never answers (not PostgreSQL nor Redis). */
async function silentServer(): Promise<Server & { port: number }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
}

/**
 * The PostgreSQL and Redis launchers (tools/infra) cannot hand their servers a socket: a port
 * someone else holds is reported as taken instead of being mistaken for theirs, and without a
 * port given they draw ports until one is free.
 */
describe('infra launchers: the server answering is the one started', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const dataDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'infra-ports-'));
    dirs.push(d);
    return d;
  };

  it('PostgreSQL on a port another server holds: refused as taken, not accepted as ready', async () => {
    const other = await silentServer();
    try {
      await expect(startPostgres({ dataDir: dataDir(), durable: false, port: other.port })).rejects.toThrow(
        new RegExp(`port ${other.port} is taken`),
      );
    } finally {
      other.close();
    }
  }, 60_000);

  it('Redis on a port another Redis holds: refused as taken; without a port, one of its own', async () => {
    const first = await startRedis();
    try {
      await expect(startRedis({ port: first.port })).rejects.toThrow(new RegExp(`port ${first.port} is taken`));
      const second = await startRedis();
      expect(second.port).not.toBe(first.port);
      await second.stop();
    } finally {
      await first.stop();
    }
  }, 30_000);
});
