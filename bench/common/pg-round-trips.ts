/**
 * A TCP relay in front of PostgreSQL that counts a service's database round trips: every Sync
 * (the end of an extended-protocol query: parse, bind, execute) and every simple Query the client
 * sends waits for the server's answer, so their number is the number of round trips, whatever
 * the driver, pool or transaction boundaries. It also counts the statements sent, by text.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface RoundTripCounter {
  /** `postgres://...` pointing at the relay instead of the server. */
  url: string;
  /** Round trips relayed so far. */
  roundTrips(): number;
  /** How often each statement text was sent so far. */
  statements(): Map<string, number>;
  stop(): Promise<void>;
}

/** Reads the client's messages as they stream through and counts them. */
class ClientStream {
  private buffered: Buffer = Buffer.alloc(0);
  private started = false;

  constructor(private readonly onMessage: (type: string, body: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (;;) {
      // The startup packet (and an SSL or GSS request before it) has no type byte.
      const header = this.started ? 5 : 4;
      if (this.buffered.length < header) return;
      const length = this.buffered.readInt32BE(header - 4);
      const total = length + header - 4;
      if (this.buffered.length < total) return;
      const message = this.buffered.subarray(0, total);
      this.buffered = this.buffered.subarray(total);
      if (!this.started) {
        const code = message.readInt32BE(4);
        this.started = code !== 80877103 && code !== 80877104; // SSLRequest, GSSENCRequest
      } else this.onMessage(String.fromCharCode(message[0]), message.subarray(5));
    }
  }
}

/** A Parse message's query text (after the statement name), or a Query's. */
function statementText(type: string, body: Buffer): string {
  const start = type === 'P' ? body.indexOf(0) + 1 : 0;
  const end = body.indexOf(0, start);
  return body
    .subarray(start, end < 0 ? body.length : end)
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Starts the relay on a free port of 127.0.0.1 in front of `databaseUrl`'s server. */
export async function startRoundTripCounter(databaseUrl: string): Promise<RoundTripCounter> {
  const target = new URL(databaseUrl);
  let roundTrips = 0;
  const statements = new Map<string, number>();
  const sockets = new Set<Socket>();
  const count = (type: string, body: Buffer) => {
    if (type === 'S' || type === 'Q') roundTrips++;
    if (type === 'P' || type === 'Q') {
      const text = statementText(type, body);
      statements.set(text, (statements.get(text) ?? 0) + 1);
    }
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const stream = new ClientStream(count);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (s === client ? upstream : client).destroy());
    }
    client.on('data', (chunk: Buffer) => stream.push(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const relayed = new URL(databaseUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: relayed.toString(),
    roundTrips: () => roundTrips,
    statements: () => new Map(statements),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
