// The baseline for the HTTP scenarios: a bare Express 5 app in its own process,
// one handler that parses a JSON body (when there is one) and answers with the
// same JSON document our route returns. No auth, no database.
//
// With `roundTrips`, or `?round_trips=N` on a server given `databaseUrl` (a
// calibration, not a baseline of record), the handler first makes that many
// sequential trivial queries (SELECT $1) through a pg pool: the ceiling of any
// handler that needs as many round trips on this machine.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import { daemon } from '../lib/child.js';

export interface BareInput {
  json: unknown;
  roundTrips?: number;
  databaseUrl?: string;
}

daemon<BareInput, { url: string }>(async ({ json, roundTrips = 0, databaseUrl }) => {
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 20 }) : null;
  let stopping = false;
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '256kb' }));
  app.use((req, res, next) => {
    void (async () => {
      const n = pool && typeof req.query.round_trips === 'string' ? Number(req.query.round_trips) : roundTrips;
      for (let i = 0; i < n; i++) await pool!.query('SELECT $1::int AS n', [i]);
      res.status(200).json(json);
    })().catch((e) => (stopping ? res.destroy() : next(e)));
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ready: { url: `http://127.0.0.1:${port}` },
    stop: async () => {
      stopping = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool?.end();
    },
  };
});
