// One Postgres for the whole run: the embedded one in a fresh temp folder, or
// DATABASE_URL when set. Migrations run once into a template database; each
// test file clones it (CREATE DATABASE ... TEMPLATE), which takes milliseconds.
import { appendFileSync } from 'node:fs';
import { mkdtemp, chown, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedCluster } from '../../src/platform/db/embedded-postgres.js';
import { createDb, migrate } from '../../src/platform/db/database.js';

import { buildForChildren, removeChildBuild } from './child-build.js';
import { TEMPLATE_DB } from './db.js';
import { testEventStoreUrl } from './event-store.js';
import { eventLogProblems, eventLogStats } from './event-log-check.js';
import { checkRecordedAnswers, recordedAnswers } from './answer-check.js';
let cluster: EmbeddedCluster | null = null;
let dir: string | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  // The unit tier is pure: no database.
  if (process.env.TEST_TIER === 'unit') return;
  // Set before the workers start: they inherit it, and their child processes run from it.
  process.env.TEST_CHILD_BUILD = await buildForChildren();
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-test-'));
    if (process.getuid?.() === 0) await chown(dir, 0, 0);
    // fsync off: the cluster is thrown away with the run, and no test crashes the machine under it (a test that kills
    // Postgres kills processes, and what they wrote stays in the page cache). Commits still wait for their WAL to be
    // written, so every guarantee a test observes holds; they only stop waiting for the disk.
    cluster = await startEmbeddedPostgres({ dataDir: dir, adoptOrphans: true, log: () => undefined, settings: { fsync: 'off', full_page_writes: 'off' } });
    adminUrl = cluster.url('postgres');
    console.log(`  [fixture] embedded Postgres on port ${cluster.port} (${dir})`);
  } else {
    console.log('  [fixture] using DATABASE_URL');
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${TEMPLATE_DB}`;
  const db = createDb(u.toString(), { max: 2 });
  await migrate(db);
  await db.destroy();
  process.env.TEST_PG_ADMIN_URL = adminUrl;
  // TEST_EVENT_STORE=eventstoredb (test/support/event-store.ts): a wrong setting fails here, once, not in every file.
  const esdb = testEventStoreUrl();
  if (esdb) console.log(`  [fixture] event log in EventStoreDB at ${esdb.replace(/\/\/[^@/]*@/, '//***@')} (TEST_EVENT_STORE=eventstoredb)`);
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (process.env.TEST_CHILD_BUILD) await removeChildBuild(process.env.TEST_CHILD_BUILD);
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** Every event appended anywhere in the run matches its declaration in the catalogue. */
function checkEvents(): string | null {
  if (eventLogStats.databases === 0) return null;
  console.log(`  [fixture] checked ${eventLogStats.events} events in ${eventLogStats.databases} databases against the event catalogue`);
  return eventLogProblems.length
    ? `events that do not match the catalogue (src/capabilities/*/*.events.ts):\n${eventLogProblems.slice(0, 50).join('\n')}`
    : null;
}

/** Every answer the HTTP client received has a documented status and matches its schema in the OpenAPI document. */
function checkAnswers(): string | null {
  if (recordedAnswers.length === 0) return null;
  const r = checkRecordedAnswers();
  const statuses = [...r.covered.values()].reduce((n, s) => n + s.size, 0);
  console.log(
    `  [fixture] checked ${r.checked} answers (${r.covered.size} operations, ${statuses} operation statuses) against docs/openapi.json; ${r.unmatched} requests matched no documented route`,
  );
  return r.problems.length
    ? `answers that do not match the OpenAPI document (declare them in the route's responses, then npm run openapi):\n${r.problems.slice(0, 60).join('\n')}`
    : null;
}

// TEST_CPU_REPORT=<file>: each test file's CPU time in its worker (the test and the in-process service, not
// Postgres) and wall time, one line per file appended: where `npm test`'s time goes (docs/architecture.md#tests).
let fileStart: { cpu: NodeJS.CpuUsage; at: number } | null = null;
function reportCpu(ctx: Mocha.Context): void {
  const out = process.env.TEST_CPU_REPORT;
  if (!out || !fileStart) return;
  const cpu = process.cpuUsage(fileStart.cpu);
  const file = ctx.test?.parent?.suites[0]?.file ?? '?';
  appendFileSync(
    out,
    `${((cpu.user + cpu.system) / 1e6).toFixed(1)}\t${((Date.now() - fileStart.at) / 1000).toFixed(1)}\t${path.relative(process.cwd(), file)}\n`,
  );
}

export const mochaHooks = {
  beforeAll() {
    fileStart = { cpu: process.cpuUsage(), at: Date.now() };
  },
  afterAll(this: Mocha.Context) {
    reportCpu(this);
    const problems = [checkEvents(), checkAnswers()].filter((p): p is string => p !== null);
    // Run once at the end serially, but after each file in parallel mode (each worker
    // holds only its own files' records): what was checked is dropped, not checked twice.
    recordedAnswers.length = 0;
    eventLogProblems.length = 0;
    eventLogStats.databases = 0;
    eventLogStats.events = 0;
    if (problems.length) throw new Error(problems.join('\n\n'));
  },
};
