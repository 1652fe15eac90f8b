// The composition root: builds every dependency once and wires capabilities
// together. Nothing else constructs databases, stores or workers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { DeliveryObserver } from './dispatch/delivery-worker.js';
import type { Config } from './config.js';
import { createApp } from './api/app.js';
import { clientErrorHandler } from './api/error-handler.js';
import { CommandShell } from './commands/shell.js';
import type { EventStore } from './eventstore/store.port.js';
import { PgNotifier } from './eventstore/pg-notifier.js';
import { PostgresEventStore } from './eventstore/postgres.store.js';
import { OpeningStore } from './eventstore/opening-store.js';
import { Forgettable } from './eventstore/forgettable.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createSealer } from './platform/crypto/seal.js';
import { createDb, ensureDatabase, ensureLoginRole, migrate, userOf } from './platform/db/database.js';
import { ConnectionWatch, PRIMARY_PROBE_SQL, type ConnectionEvents } from './platform/db/connection-watch.js';
import { tenantScope } from './platform/db/tenant-scope.js';
import { startEmbeddedPostgres, type EmbeddedCluster } from './platform/db/embedded-postgres.js';
import { randomIds, type Ids } from './platform/ids.js';
import { createLogger, type Logger } from './platform/logger.js';
import { secretsKey } from './platform/secrets-key.js';
import { ProjectionEngine } from './projections/engine.js';
import { UrlPolicy } from './dispatch/url-policy.js';
import { dnsResolver } from './platform/dns.js';
import { smtpRelay } from './platform/mail/relay.js';
import { startCatchUpProjector } from './projections/catch-up.js';
import type { Subscription } from './eventstore/store.port.js';
import type { AuditChainObserver, CapabilityModule, CoreDeps, SigninObserver } from './capabilities/capability.js';
import { chainAlarm } from './capabilities/audit-chain/index.js';
import type { Worker } from './platform/worker.js';
import { additions, allProjectors, eventCatalogue, modules, personalObjects } from './capabilities/index.js';
import { Authenticator } from './capabilities/access/index.js';
import { eventClientSealer, KeyAddresses } from './capabilities/audit-log/index.js';
import { Idempotency } from './api/idempotency/idempotency.js';
import { idempotencySweeper } from './api/idempotency/sweeper.js';
import type { RouteDef, RoutePipeline } from './api/routes.js';
import { openApiDocument } from './openapi-document.js';
import { ServiceMetrics } from './metrics.js';
import { RateLimiter } from './api/rate-limit/limiter.js';
import { RateLimits } from './api/rate-limit/rate-limits.js';
import { PostgresWindowStore } from './capabilities/rate-limits/index.js';
import { offload } from './platform/offload.js';
import { stopper } from './platform/http-stop.js';

export const EMBEDDED_DATABASE = 'conversations';
/** Connections of the owner-role pool (CoreDeps.ownerDb): workers, and requests' lookups across tenants. */
const OWNER_POOL = 8;

export interface ServiceOptions {
  config: Config;
  clock?: Clock;
  ids?: Ids;
  log?: Logger;
  /** start the HTTP server (false for the CLI) */
  http?: boolean;
  /** modules mounted after the service's own: a hook for tests, never set in production */
  extraModules?: CapabilityModule[];
}

export interface Database {
  db: Knex;
  url: string;
  cluster: EmbeddedCluster | null;
}

/** Opens (and for the embedded default, starts) the database and migrates it. */
/**
 * `events`: told about the pool's connections (a ConnectionWatch); `waitMs`: how long a database with no
 * primary yet (a failover under way) is waited for before giving up (default: not at all).
 */
export async function openDatabase(
  config: Config,
  log: Logger,
  opts: { adoptOrphans: boolean; pool?: number; events?: ConnectionEvents; waitMs?: number },
): Promise<Database> {
  let url = config.databaseUrl;
  let ownerUrl = config.databaseOwnerUrl;
  let cluster: EmbeddedCluster | null = null;
  if (!url) {
    // The embedded default has both logins: the superuser migrates and owns the log, the service serves as its own role.
    cluster = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      adoptOrphans: opts.adoptOrphans,
      log: (m) => log.info(m),
      // the ports this process listens on once the database is ready: free now, and not to be given to Postgres
      avoidPorts: [config.port, ...(config.smtpPort === null ? [] : [config.smtpPort])].filter((p) => p > 0),
    });
    await ensureDatabase(cluster.url('postgres'), EMBEDDED_DATABASE);
    await ensureLoginRole(cluster.url('postgres'), cluster.serving.user, cluster.serving.password);
    ownerUrl = cluster.url(EMBEDDED_DATABASE);
    url = cluster.servingUrl(EMBEDDED_DATABASE);
  }
  const db = createDb(url, { max: opts.pool ?? 20, prepare: config.preparedStatements, log, events: opts.events });
  const serving = userOf(url);
  const owner = ownerUrl && userOf(ownerUrl) !== serving ? createDb(ownerUrl, { max: 3, prepare: false, log }) : null;
  try {
    await migrate(owner ?? db, {
      waitMs: opts.waitMs,
      onWait: (e) => log.warn({ err: e }, 'the database has no primary yet; waiting for one'),
      serving: owner ? serving : undefined,
      onSeparated: (s) => {
        if (s.changed.length > 0)
          log.info({ statements: s.changed.length }, `the event log is append-only for ${serving}: it reads and appends, its owner alone changes it`);
        for (const w of s.warnings) log.warn(w);
      },
    });
  } finally {
    await owner?.destroy();
  }
  if (!owner) log.warn(`${serving} migrates and owns the event log, so it could rewrite it: set DATABASE_OWNER_URL to a login that owns it (docs/audit.md)`);
  return { db, url, cluster };
}

export interface Service {
  url: string;
  port: number;
  deps: CoreDeps;
  engine: ProjectionEngine;
  /** every route the service mounts under /api (with its schemas and permission) */
  routes: RouteDef[];
  /** the background workers running in this process (tests drive them by name) */
  workers: Worker[];
  /** Prometheus metrics (GET /metrics) */
  metrics: ServiceMetrics;
  close(): Promise<void>;
}

/**
 * Builds the core every capability is handed, complete: nothing is filled in after.
 * `wiring`: what the HTTP service adds (the owner pool, the delivery observer, the rate limits, its stop signal); the CLI
 * passes none.
 */
export async function openCore(
  options: ServiceOptions,
  database: Database,
  wiring: {
    ownerDb?: Knex;
    deliveryObserver?: DeliveryObserver;
    rateLimits?: RateLimits;
    connections?: ConnectionWatch;
    signinObserver?: SigninObserver;
    auditChain?: AuditChainObserver;
    stopping?: AbortSignal;
  } = {},
): Promise<{ deps: CoreDeps; engine: ProjectionEngine }> {
  const { config } = options;
  const log = options.log ?? createLogger(config.logLevel);
  const notifier = new PgNotifier(database.url, (e) => log.warn({ err: e }, 'LISTEN connection error'), wiring.connections);
  // Requests run inside a tenant scope: every connection they take is behind row-level security.
  const scope = tenantScope(database.db, { enabled: config.rowLevelSecurity });
  if (wiring.ownerDb) scope.cover(wiring.ownerDb);
  const secrets = await secretsKey(config.secretsKey, config.dataDir);
  const sealer = createSealer({ channel: config.channelsSecret ?? undefined, webhook: secrets, idempotency: secrets, data_key: secrets });
  const catalogue = eventCatalogue();
  const forgettable = new Forgettable(catalogue, sealer, personalObjects());
  // The EventStoreDB client (gRPC, protobufs: about 25 MiB resident) is loaded only when it is used.
  const log_: EventStore = config.eventstoreUrl
    ? await (
        await import('./eventstore/eventstoredb.store.js')
      ).connectEventStoreDb(config.eventstoreUrl, database.db, {
        chain: config.auditChain,
        streamPrefix: config.eventstoreStreamPrefix,
      })
    : new PostgresEventStore(database.db, notifier, { chain: config.auditChain });
  // Everything that reads the log reads personal fields opened (or null once erased).
  const store = new OpeningStore(log_, forgettable, database.db);
  const engine = new ProjectionEngine(allProjectors(), { logInDatabase: store.kind === 'postgres' });
  const ids = options.ids ?? randomIds;
  // Each write's caller (address, user agent) goes into its events' metadata, sealed: the audit log shows it.
  const shell = new CommandShell(store, database.db, engine, ids, forgettable, scope, {
    groupCommit: config.groupCommit,
    metadata: eventClientSealer(forgettable, catalogue),
  });
  const urlPolicy = new UrlPolicy(config.webhookAllowlist);
  const mail = config.smtpRelayUrl ? smtpRelay(config.smtpRelayUrl, { from: config.mailFrom }) : undefined;
  // No thread starts before the first message arrives: most processes (the CLI, API-only ones) never parse mail.
  const threads = offload({ threads: config.mailParseThreads ?? undefined, heapMb: config.mailParseHeapMb });
  const deps: CoreDeps = {
    config,
    db: database.db,
    scope,
    store,
    notifier,
    shell,
    clock: options.clock ?? systemClock,
    ids,
    log,
    sealer,
    forgettable,
    urlPolicy,
    catalogue,
    additions: additions(options.extraModules),
    dns: dnsResolver(config.dnsServers),
    ...(mail ? { mail } : {}),
    offload: threads,
    ...wiring,
  };
  return { deps, engine };
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config } = options;
  const log = options.log ?? createLogger(config.logLevel);
  // What this process notices of its connections across a primary change (metrics; see connection-watch.ts).
  let primaryDb: Knex | null = null;
  const connections = new ConnectionWatch(async () => (await primaryDb!.raw(PRIMARY_PROBE_SQL)).rows[0]?.writable === true);
  // A process started during a failover waits for the new primary instead of exiting.
  const database = await openDatabase(config, log, { adoptOrphans: true, events: connections, waitMs: START_WAIT_MS });
  primaryDb = database.db;
  // What works as the owner role (the workers; authentication and the signed inbound route's channel
  // lookup, which find their tenant) gets a small pool of its own. On the requests' pool each of its
  // statements would switch a connection's role, and switch it back for the next request; and the
  // dispatcher's lock would hold a request connection for as long as the process runs.
  const ownerDb = createDb(database.url, { max: OWNER_POOL, prepare: config.preparedStatements, log, events: connections });
  let scope: CoreDeps['scope'] | null = null;
  const metrics = new ServiceMetrics({
    db: database.db,
    storeKind: config.eventstoreUrl ? 'eventstoredb' : 'postgres',
    log,
    roleSwitches: () => scope?.switches() ?? 0,
    connections,
  });
  // Rate limits shared by every process on the database (token leasing: src/api/rate-limit/limiter.ts),
  // counted on the owner pool; time from the injected clock, like every other rule with a window.
  const rateLimits = config.rateLimits
    ? new RateLimits(
        new RateLimiter(new PostgresWindowStore(ownerDb), options.clock ?? systemClock, (e) => log.warn({ err: e }, 'rate limit: taking a block failed')),
        config.rateLimits,
        metrics.rateLimitObserver,
      )
    : undefined;
  const stopping = new AbortController();
  const { deps, engine } = await openCore({ ...options, log }, database, {
    ownerDb,
    stopping: stopping.signal,
    deliveryObserver: metrics.deliveryObserver,
    rateLimits,
    connections,
    signinObserver: metrics.signinObserver,
    // One alarm for the process: the routes and the checkpoint worker say a workspace's chain broke once between them.
    auditChain: chainAlarm(log, metrics.auditChainObserver),
  });
  scope = deps.scope;
  // Metrics observe the shell through its hooks (commits, refusals); nothing replaces its methods.
  metrics.observeShell(deps.shell);
  let live = true;

  // The request pipeline every /api route runs through: who is calling, and Idempotency-Key.
  const auth = new Authenticator(ownerDb, deps.clock, new KeyAddresses({ ...deps, db: ownerDb }));
  void auth.watch(deps.shell, deps.notifier).catch((e) => log.warn({ err: e }, 'auth cache invalidation could not listen'));
  // Reservations commit on their own (spec 3.2). They and the stored answers are written on the owner
  // pool, batched across workspaces (each row names its tenant); replays read in the request's tenant scope.
  const idempotency = new Idempotency(database.db, deps.clock, deps.sealer, deps.forgettable, { db: ownerDb, scope: deps.scope }, deps.ids);
  const pipeline: RoutePipeline = metrics.instrumentPipeline({
    authenticate: (req) => auth.authenticate(req),
    requireFreshSession: (p) => auth.requireFreshSession(p),
    idempotent: (req, principal, run) => idempotency.run(req, principal, run),
    unkeyed: () => idempotency.unkeyed(),
    scoped: (principal, run) => deps.scope.run(principal.tenantId, run),
    limit: rateLimits ? (principal, rateClass, cost) => rateLimits.forCaller(principal, rateClass, cost) : async () => NO_FIELDS,
  });
  const routes = [...modules, ...(options.extraModules ?? [])].flatMap((m) => m.routes?.(deps) ?? []);

  const app = createApp({
    log,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routes,
    pipeline,
    openapi: openApiDocument(routes),
    metrics: { middleware: metrics.httpMiddleware(), handler: metrics.handler(config.metricsToken) },
    health: {
      live: () => live,
      // Bounded: a database that does not answer (a partition, a pool waiting for connections) is
      // not ready either, and the load balancer asking must hear so within its own timeout.
      ready: async () => {
        // Writable, not merely answering: a standby answers SELECT 1 too, and could take no write.
        // A session the pool refused because its server is read-only (database.ts) answers as a read-only probe would.
        const writable = await answerWithin(
          () =>
            database.db.raw(PRIMARY_PROBE_SQL).then(
              (r) => r.rows[0]?.writable === true,
              (e: { code?: string }) => (e?.code === '25006' ? false : Promise.reject(e)),
            ),
          READY_TIMEOUT_MS,
        );
        if (writable !== true) connections.unavailable();
        if (writable === null) return 'database unreachable';
        if (!writable) return 'database is read-only (not the primary)';
        if (!(await answersWithin(() => deps.store.ping(), READY_TIMEOUT_MS))) return 'event store unreachable';
        return null;
      },
    },
  });

  // Background workers work as the owner role across tenants, on the owner pool (see ownerDb).
  const workerDeps: CoreDeps = {
    ...deps,
    db: ownerDb,
    store:
      deps.store.kind === 'postgres'
        ? new OpeningStore(new PostgresEventStore(ownerDb, deps.notifier, { chain: config.auditChain }), deps.forgettable, ownerDb)
        : deps.store,
  };
  const workers: Worker[] = config.workers
    ? [
        idempotencySweeper(new Idempotency(ownerDb, deps.clock, deps.sealer, deps.forgettable, { db: ownerDb, scope: deps.scope }, deps.ids), log),
        ...modules.flatMap((m) => m.workers?.(workerDeps) ?? []),
      ]
    : [];
  let catchUp: Subscription | null = null;
  if (config.workers && deps.store.kind !== 'postgres') catchUp = await startCatchUpProjector(database.db, deps.store, engine, log);
  for (const w of workers) await w.start();

  // Bounded waits for slow clients; Node checks the headers and request timeouts every
  // connectionsCheckingInterval, so that runs well inside the headers timeout.
  const server = http.createServer({ connectionsCheckingInterval: Math.min(1000, Math.ceil(config.httpHeadersTimeoutMs / 2)) }, app);
  server.headersTimeout = config.httpHeadersTimeoutMs;
  server.requestTimeout = config.httpRequestTimeoutMs;
  server.keepAliveTimeout = config.httpKeepAliveTimeoutMs;
  server.on('clientError', clientErrorHandler);
  // A stop waits for the answers in flight, at most 10 s, and for no connection that is not waiting for one.
  const stop = stopper(server, 10_000);
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
      // Stop accepting, end the answers that never end by themselves (event streams), let in-flight requests
      // finish, then stop workers and storage.
      stopping.abort();
      await stop.stop();
      for (const w of [...workers].reverse()) await w.stop().catch((e) => log.warn({ err: e, worker: w.name }, 'worker stop failed'));
      await catchUp?.stop();
      if (workerDeps.store !== deps.store) await workerDeps.store.close();
      await deps.store.close();
      await deps.notifier.close();
      await deps.offload.close();
      await connections.close();
      await ownerDb.destroy();
      await database.db.destroy();
      await database.cluster?.stop();
      log.info('service stopped');
    })());
  return { url, port, deps, engine, routes, workers, metrics, close };
}

/** What an answer carries with RATE_LIMITS=off. */
const NO_FIELDS: Record<string, string> = {};

/** How long a process starting with no primary (a failover under way) waits for one before it exits. */
const START_WAIT_MS = 60_000;

/** How long /readyz waits for the database and the event store before it says 503. */
const READY_TIMEOUT_MS = 2_000;

/** What `probe` answers within `ms`, or null when it failed or was late. */
async function answerWithin<T>(probe: () => Promise<T>, ms: number): Promise<T | null> {
  let answered: T | null = null;
  return (await answersWithin(async () => (answered = await probe()), ms)) ? answered : null;
}

/** Whether `probe` succeeds within `ms` (a probe still running after that is left to fail on its own). */
async function answersWithin(probe: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      probe().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
