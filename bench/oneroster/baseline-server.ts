/**
 * The benchmark's baseline: the smallest server that answers the users page-1 query — node:http
 * and a pg pool, no framework, no authentication, no OneRoster formatting — so the rostering service's
 * page-1 throughput can be compared with what the same machine and database allow.
 *
 *   BASELINE_PORT=0 DATABASE_URL=... BASELINE_TENANT=<uuid> node dist/bench/oneroster/baseline-server.js
 *
 * Answers `GET /users?offset=N&limit=M` with `{"users":[rows]}`; prints `listening <port>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';

const pool = new Pool({
  connectionString: process.env['DATABASE_URL'],
  max: Number(process.env['BASELINE_POOL_SIZE'] ?? 10),
});
const tenant = process.env['BASELINE_TENANT'] ?? '';
// The same page of the same index as the service's default-order page: rows as stored, as JSON.
// Stored columns only: a generated column (`roles_text`) is a copy of another, not more data.
const STORED_COLUMNS = `SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS list
  FROM information_schema.columns
 WHERE table_schema = current_schema() AND table_name = 'roster_users' AND is_generated = 'NEVER'`;
let sql = '';

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/users') {
    res.writeHead(404).end();
    return;
  }
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 100);
  pool.query(sql, [tenant, offset, limit]).then(
    ({ rows }) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ users: rows }));
    },
    (err: Error) => {
      res.writeHead(500).end(err.message);
    },
  );
});

// The socket the bench hands over (LISTEN_FD), else BASELINE_PORT (0: any); once the statement is known.
const fd = process.env['LISTEN_FD'];
void pool.query<{ list: string }>(STORED_COLUMNS).then(({ rows }) => {
  sql = `SELECT ${rows[0]?.list ?? '*'} FROM roster_users AS t WHERE t.tenant_id = $1::uuid AND t.ordinal >= $2 ORDER BY t.ordinal LIMIT $3`;
  server.listen(
    fd ? { fd: Number(fd) } : { port: Number(process.env['BASELINE_PORT'] ?? 0), host: '127.0.0.1' },
    () => {
      console.log(`listening ${(server.address() as AddressInfo).port}`);
    },
  );
});

process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
