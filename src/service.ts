// The composition root: builds every dependency once and wires capabilities
// together. Nothing else constructs databases, stores or workers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Config } from './config.js';
import { createApp } from './api/app.js';
import { CommandShell } from './commands/shell.js';
import type { EventStore } from './eventstore/store.port.js';
import { PgNotifier } from './eventstore/pg-notifier.js';
import { PostgresEventStore } from './eventstore/postgres.store.js';
import { connectEventStoreDb } from './eventstore/eventstoredb.store.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createSealer } from './platform/crypto/seal.js';
import { createDb, ensureDatabase, migrate } from './platform/db/database.js';
import { startEmbeddedPostgres, type EmbeddedCluster } from './platform/db/embedded-postgres.js';
import { randomIds, type Ids } from './platform/ids.js';
import { createLogger, type Logger } from './platform/logger.js';
import { secretsKey } from './platform/secrets-key.js';
import { ProjectionEngine } from './projections/engine.js';
import { UrlPolicy } from './dispatch/url-policy.js';
import { startCatchUpProjector } from './projections/catch-up.js';
import type { Subscription } from './eventstore/store.port.js';
import type { CoreDeps, Worker } from './capabilities/capability.js';
import { buildCapabilities, allProjectors } from './capabilities/index.js';

export const EMBEDDED_DATABASE = 'conversations';

export interface ServiceOptions {
  config: Config;
  clock?: Clock;
  ids?: Ids;
  log?: Logger;
  /** start the HTTP server (false for the CLI) */
  http?: boolean;
}

export interface Database {
  db: Knex;
  url: string;
  cluster: EmbeddedCluster | null;
}

/** Opens (and for the embedded default, starts) the database and migrates it. */
export async function openDatabase(config: Config, log: Logger, opts: { adoptOrphans: boolean; pool?: number }): Promise<Database> {
  let url = config.databaseUrl;
  let cluster: EmbeddedCluster | null = null;
  if (!url) {
    cluster = await startEmbeddedPostgres({ dataDir: config.dataDir, adoptOrphans: opts.adoptOrphans, log: (m) => log.info(m) });
    await ensureDatabase(cluster.url('postgres'), EMBEDDED_DATABASE);
    url = cluster.url(EMBEDDED_DATABASE);
  }
  const db = createDb(url, { max: opts.pool ?? 20 });
  await migrate(db);
  return { db, url, cluster };
}

export interface Service {
  url: string;
  port: number;
  deps: CoreDeps;
  engine: ProjectionEngine;
  /** the background workers running in this process (tests drive them by name) */
  workers: Worker[];
  close(): Promise<void>;
}

export async function openCore(options: ServiceOptions, database: Database): Promise<{ deps: CoreDeps; engine: ProjectionEngine }> {
  const { config } = options;
  const log = options.log ?? createLogger(config.logLevel);
  const notifier = new PgNotifier(database.url, (e) => log.warn({ err: e }, 'LISTEN connection error'));
  const store: EventStore = config.eventstoreUrl
    ? await connectEventStoreDb(config.eventstoreUrl, database.db)
    : new PostgresEventStore(database.db, notifier);
  const engine = new ProjectionEngine(allProjectors());
  const ids = options.ids ?? randomIds;
  const shell = new CommandShell(store, database.db, engine, ids);
  const secrets = await secretsKey(config.secretsKey, config.dataDir);
  const sealer = createSealer({ channel: config.channelsSecret ?? undefined, webhook: secrets, idempotency: secrets });
  const urlPolicy = new UrlPolicy(config.webhookAllowlist);
  const deps: CoreDeps = { config, db: database.db, store, notifier, shell, clock: options.clock ?? systemClock, ids, log, sealer, urlPolicy };
  return { deps, engine };
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config } = options;
  const log = options.log ?? createLogger(config.logLevel);
  const database = await openDatabase(config, log, { adoptOrphans: true });
  const { deps, engine } = await openCore({ ...options, log }, database);
  const capabilities = buildCapabilities(deps);
  let live = true;

  const app = createApp({
    log,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routes: capabilities.routes,
    pipeline: capabilities.pipeline,
    health: {
      live: () => live,
      ready: async () => {
        try {
          await database.db.raw('SELECT 1');
        } catch {
          return 'database unreachable';
        }
        try {
          await deps.store.ping();
        } catch {
          return 'event store unreachable';
        }
        return null;
      },
    },
  });

  const workers: Worker[] = config.workers ? capabilities.workers : [];
  let catchUp: Subscription | null = null;
  if (config.workers && deps.store.kind !== 'postgres') catchUp = await startCatchUpProjector(database.db, deps.store, engine, log);
  for (const w of workers) await w.start();

  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info({ url, event_store: deps.store.kind, embedded_postgres: database.cluster !== null }, 'service listening');

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      live = false;
      // Stop accepting, let in-flight requests finish, then stop workers and storage.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 10_000).unref();
      });
      for (const w of [...workers].reverse()) await w.stop().catch((e) => log.warn({ err: e, worker: w.name }, 'worker stop failed'));
      await catchUp?.stop();
      await deps.store.close();
      await deps.notifier.close();
      await database.db.destroy();
      await database.cluster?.stop();
      log.info('service stopped');
    })());
  return { url, port, deps, engine, workers, close };
}
