// upload: files of 1 MiB posted to POST /api/uploads (raw bytes, an API key),
// a few at a time, against plain INSERTs of the same bytes into a bytea column
// through pg, as many at a time: how much of the database's own rate for the
// bytes the service keeps, with everything an upload adds (the HTTP body, the
// type sniffed from the bytes, its key made and the bytes sealed, its event
// appended and projected). Both sides are driven from the bench's process, in
// the same way, each bounded in count and in time.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { row } from '../lib/report.js';
import { auth, inParallel, type Scenario } from './shared.js';

const FILE_BYTES = 1024 * 1024;
const CONCURRENCY = 4;
const MAX_FILES = 2000;
const MiB = 1024 * 1024;

interface Run {
  files: number;
  seconds: number;
  failures: number;
  mbPerS: number;
}

/** Sends `send` from CONCURRENCY lanes until `seconds` pass or MAX_FILES were sent; counts what succeeded. */
async function drive(seconds: number, send: () => Promise<boolean>): Promise<Run> {
  const started = performance.now();
  const until = started + seconds * 1000;
  let sent = 0;
  let ok = 0;
  let failures = 0;
  await inParallel(
    Array.from({ length: CONCURRENCY }, (_, i) => i),
    CONCURRENCY,
    async () => {
      while (performance.now() < until && sent < MAX_FILES) {
        sent++;
        if (await send()) ok++;
        else failures++;
      }
    },
  );
  const elapsed = (performance.now() - started) / 1000;
  return { files: ok, seconds: elapsed, failures, mbPerS: (ok * FILE_BYTES) / MiB / elapsed };
}

export const upload: Scenario = {
  name: 'upload',
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const main = await ctx.tenant('main');
    const file = randomBytes(FILE_BYTES);
    let firstError: string | null = null;
    const post = async () => {
      const r = await fetch(`${svc.url}/api/uploads?filename=bench.bin`, {
        method: 'POST',
        headers: { ...auth(main), 'content-type': 'application/octet-stream' },
        body: file,
      });
      await r.arrayBuffer();
      if (r.status !== 201) firstError ??= `${r.status}`;
      return r.status === 201;
    };
    const pool = new pg.Pool({ connectionString: ctx.dbs.mainUrl, max: CONCURRENCY });
    try {
      await pool.query('CREATE TABLE IF NOT EXISTS bench_upload_blobs (id uuid PRIMARY KEY, b bytea NOT NULL)');
      const insert = async () => {
        await pool.query('INSERT INTO bench_upload_blobs (id, b) VALUES ($1, $2)', [randomUUID(), file]);
        return true;
      };
      // Warm both (JIT, connections, the table's first pages), then measure each once.
      await drive(ctx.sizes.warmupS, post);
      await drive(ctx.sizes.warmupS, insert);
      const ours = await drive(ctx.sizes.loadS, post);
      const base = await drive(ctx.sizes.loadS, insert);
      return [
        row({
          scenario: 'upload',
          figure: `POST /api/uploads of 1 MiB files (raw bytes, API key), ${CONCURRENCY} at a time`,
          unit: 'MB/s',
          ours: ours.mbPerS,
          baselineLabel: 'plain INSERT of the same bytes (bytea, pg)',
          baseline: base.mbPerS,
          target: { kind: 'ratio>=', value: 0.25 },
          note: ours.failures ? `${ours.failures} uploads failed (first: ${firstError}); only 201s are counted` : undefined,
          details: { ours, baseline: base, file_bytes: FILE_BYTES, concurrency: CONCURRENCY },
        }),
      ];
    } finally {
      await pool.query('DROP TABLE IF EXISTS bench_upload_blobs').catch(() => undefined);
      await pool.end();
    }
  },
};
