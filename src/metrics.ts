// Prometheus metrics (prom-client), one registry per service. Part of the composition
// root: it observes every layer (HTTP, the shell, the delivery worker), so none of them imports it.
// Counted as things happen: HTTP requests (by route template, method and status, with latency),
// commands (appended through the shell's onCommitted, refused where the shell
// throws), idempotency replays and conflicts (at the route pipeline), delivery
// attempts (the delivery worker's observer). Sampled from the database at
// scrape time: projection and dispatcher lag, pending and dead deliveries.
// Plus the knex pool and the default process metrics (less three misnamed gauges).
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { RequestHandler } from 'express';
import client from 'prom-client';
import type { CommandShell } from './commands/shell.js';
import type { DeliveryObserver } from './dispatch/delivery-worker.js';
import type { AuditChainObserver, SigninObserver } from './capabilities/capability.js';
import { AppError } from './platform/errors.js';
import type { Logger } from './platform/logger.js';
import { contextOf } from './api/context.js';
import type { RoutePipeline } from './api/routes.js';
import type { ConnectionWatch } from './platform/db/connection-watch.js';
import type { RateLimitObserver } from './api/rate-limit/rate-limits.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SAMPLE_TIMEOUT_MS = 2000;
/**
 * Workspaces the limited-requests counter names one by one; the rest are counted as `other`. A process
 * refuses few workspaces (a refusal means a client ignored its RateLimit fields), and this bounds the
 * series at that many × four classes however many workspaces a bad day brings.
 */
const NAMED_WORKSPACES = 100;
/**
 * prom-client's default gauges that end in `_total`, which the exposition format
 * keeps for counters (`promtool check metrics` fails on them). Each is the sum
 * of a gauge kept beside it: sum(nodejs_active_handles) and so on.
 */
const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** What /metrics reads from outside its own counters. */
export interface MetricsSources {
  /** the pool (the owner role: sampling reads every workspace's rows) */
  db: Knex;
  /** 'postgres': the log is in this database, so lag can be sampled from it */
  storeKind: string;
  log: Logger;
  /** times a pooled connection changed tenant role (row-level security), since start */
  roleSwitches?: () => number;
  /** what the process noticed of its connections across primary changes (src/platform/db/connection-watch.ts) */
  connections?: Pick<ConnectionWatch, 'reconnects' | 'secondsWithoutPrimary' | 'primaryReachable'>;
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

export class ServiceMetrics {
  readonly registry = new client.Registry();
  private readonly httpRequests = new client.Counter({
    name: 'service_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new client.Histogram({
    name: 'service_http_request_duration_seconds',
    help: "Time from a request's arrival to the end of its answer, by route template, method and status.",
    labelNames: ['route', 'method', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly commandsAppended = new client.Counter({
    name: 'service_commands_appended_total',
    help: 'Commands whose events were committed to the log.',
    registers: [this.registry],
  });
  private readonly eventsAppended = new client.Counter({
    name: 'service_events_appended_total',
    help: 'Events committed to the log, by event type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  private readonly commandsRefused = new client.Counter({
    name: 'service_commands_refused_total',
    help: 'Commands refused by their rules (a coded 4xx from the command shell), by command and code.',
    labelNames: ['command', 'code'] as const,
    registers: [this.registry],
  });
  private readonly idempotency = new client.Counter({
    name: 'service_idempotency_total',
    help: 'Requests with an Idempotency-Key that did not run: replayed (a stored answer), in_flight (409 idempotency_key_in_flight), reused (422 idempotency_key_reused).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly deliveryAttempts = new client.Counter({
    name: 'service_webhook_delivery_attempts_total',
    help: 'Delivery attempts made by this process, by target kind (endpoint, channel) and where they left the delivery (delivered, pending: a retry is due, dead).',
    labelNames: ['target_kind', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly attemptDuration = new client.Histogram({
    name: 'service_webhook_attempt_duration_seconds',
    help: "Duration of delivery attempts (the receiver's HTTP answer time).",
    labelNames: ['target_kind'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly deliveryLatency = new client.Histogram({
    name: 'service_webhook_delivery_latency_seconds',
    help: "From a delivery's creation (dispatch or republish) to the receiver's 2xx, retries included.",
    labelNames: ['target_kind'] as const,
    buckets: [...SECONDS, 30, 60, 300, 900, 3600, 7200],
    registers: [this.registry],
  });
  private readonly deliveries = new client.Gauge({
    name: 'service_webhook_deliveries',
    help: 'Deliveries in the outbox now, by target kind and state (pending, dead); sampled from the database at scrape.',
    labelNames: ['target_kind', 'state'] as const,
    registers: [this.registry],
  });
  private readonly lagEvents = new client.Gauge({
    name: 'service_projection_lag_events',
    help: 'Events in the log not yet processed, by process: read_models (sum over workspaces of head seq - checkpoint) and each subscription (webhook_dispatcher); sampled at scrape.',
    labelNames: ['process'] as const,
    registers: [this.registry],
  });
  private readonly lagSeconds = new client.Gauge({
    name: 'service_projection_lag_seconds',
    help: 'Age of the oldest event a subscription (webhook_dispatcher) has not processed yet; 0 when it is at the head; sampled at scrape.',
    labelNames: ['process'] as const,
    registers: [this.registry],
  });
  private readonly automationActions = new client.Gauge({
    name: 'service_automation_actions',
    help: 'Actions automation rules decided on, by status (pending, succeeded, failed, skipped), as their run logs hold them; runs (rule and event) are those with action_index 0; sampled at scrape.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly automationRuns = new client.Gauge({
    name: 'service_automation_runs',
    help: 'Times a rule was set off (a rule and an event whose `if` matched), as the run logs hold them; sampled at scrape.',
    registers: [this.registry],
  });
  private readonly signinThrottled = new client.Counter({
    name: 'service_signin_throttled_total',
    help: 'Sign-in attempts the throttle refused (429 too_many_attempts), by the bucket that refused them (account, address, device); an attempt refused by two counts in both.',
    labelNames: ['bucket'] as const,
    registers: [this.registry],
  });
  private readonly signinBursts = new client.Counter({
    name: 'service_signin_throttle_bursts_total',
    help: "Throttled sign-in bursts against an account seen by this process (a burst ends after a minute without a refusal); each is logged with its addresses and recorded in the account's workspaces' audit logs.",
    registers: [this.registry],
  });
  private readonly sampleErrors = new client.Counter({
    name: 'service_metrics_sample_errors_total',
    help: 'Scrapes whose database sampling failed (those gauges keep their last values).',
    registers: [this.registry],
  });
  private readonly rateLimited = new client.Counter({
    name: 'service_rate_limited_total',
    help: `Requests refused with 429 rate_limited, by workspace (the first ${NAMED_WORKSPACES} refused by this process; later ones as other) and route class (read, write, expensive, channel).`,
    labelNames: ['workspace', 'class'] as const,
    registers: [this.registry],
  });
  private readonly limitedWorkspaces = new Set<string>();
  private readonly chainBroken = new client.Gauge({
    name: 'service_audit_chain_broken',
    help: '1 for each workspace whose log does not extend the last checkpoint the service signed (an event rewritten, deleted or given a made-up hash since): no checkpoint or export is signed for it (409 audit_chain_broken) until it does; the error log line names the first failing seq. Series removed once a check holds again.',
    labelNames: ['workspace'] as const,
    registers: [this.registry],
  });

  constructor(private readonly sources: MetricsSources) {
    client.collectDefaultMetrics({ register: this.registry });
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
    const pool = (sources.db.client as { pool?: TarnPool }).pool;
    new client.Gauge({
      name: 'service_db_pool_connections',
      help: 'The Postgres connection pool (knex): used, free, pending_acquires (waiting for a connection), pending_creates.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = (sources.db.client as { pool?: TarnPool }).pool ?? pool;
        if (!p) return;
        this.set({ state: 'used' }, p.numUsed());
        this.set({ state: 'free' }, p.numFree());
        this.set({ state: 'pending_acquires' }, p.numPendingAcquires());
        this.set({ state: 'pending_creates' }, p.numPendingCreates());
      },
    });
    const switches = sources.roleSwitches;
    if (switches) {
      new client.Counter({
        name: 'service_db_role_switches_total',
        help: "Times a pooled connection was put in another workspace's role (row-level security): a round trip each; affinity keeps it low.",
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(switches());
        },
      });
    }
    const watch = sources.connections;
    if (watch) {
      new client.Counter({
        name: 'service_db_reconnects_total',
        help: "Database connections made again after one broke (a failover, a restart), by connection: pool (a broken pooled connection replaced), listen (the LISTEN connection), lock (the dispatcher's advisory lock taken again).",
        labelNames: ['connection'] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const connection of ['pool', 'listen', 'lock'] as const) this.inc({ connection }, watch.reconnects(connection));
        },
      });
      new client.Counter({
        name: 'service_db_primary_unreachable_seconds_total',
        help: 'Seconds this process had no primary to write to, since start: from a broken connection or a write refused as read-only until a probe found a writable primary again (the current outage included).',
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(watch.secondsWithoutPrimary());
        },
      });
      new client.Gauge({
        name: 'service_db_primary_reachable',
        help: 'Whether this process has a primary to write to now (1), or is in an outage it noticed (0).',
        registers: [this.registry],
        collect() {
          this.set(watch.primaryReachable() ? 1 : 0);
        },
      });
    }
  }

  /** Counts every answer by the route template that took it (set by mountRoutes), or the app route. */
  httpMiddleware(): RequestHandler {
    // The counter and histogram of each (route, method, status), looked up once: prom-client
    // would otherwise sort and hash the labels on every answer, twice.
    const series = new Map<string, { count: client.Counter.Internal; duration: client.Histogram.Internal<'route' | 'method' | 'status'> }>();
    const seriesOf = (route: string, method: string, status: number) => {
      const key = `${method} ${status} ${route}`;
      let s = series.get(key);
      if (!s) {
        const labels = { route, method, status: String(status) };
        s = { count: this.httpRequests.labels(labels), duration: this.httpDuration.labels(labels) };
        series.set(key, s);
      }
      return s;
    };
    return (req, res, next) => {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const appRoute = (req as { route?: { path?: unknown } }).route?.path;
        const route = contextOf(req).route ?? (typeof appRoute === 'string' ? appRoute : 'unmatched');
        const s = seriesOf(route, METHODS.has(req.method) ? req.method : 'OTHER', res.statusCode);
        s.count.inc();
        s.duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
      });
      next();
    };
  }

  /**
   * Counts what the shell commits (onCommitted) and what its rules refuse: the
   * shell's execute is wrapped from outside, so it needs no change of its own.
   */
  observeShell(shell: CommandShell): void {
    shell.onCommitted((_tenant, events) => {
      this.commandsAppended.inc();
      for (const e of events) this.eventsAppended.inc({ type: e.type });
    });
    shell.onRefused((command, refusal) => this.commandsRefused.inc({ command, code: refusal.code }));
  }

  /** Counts replays (Idempotent-Replayed) and refused keys at the route pipeline. */
  instrumentPipeline(pipeline: RoutePipeline): RoutePipeline {
    return {
      ...pipeline,
      idempotent: async (req, principal, run) => {
        try {
          const answer = await pipeline.idempotent(req, principal, run);
          if (answer.replayed) this.idempotency.inc({ outcome: 'replayed' });
          return answer;
        } catch (e) {
          if (e instanceof AppError && e.code === 'idempotency_key_in_flight') this.idempotency.inc({ outcome: 'in_flight' });
          if (e instanceof AppError && e.code === 'idempotency_key_reused') this.idempotency.inc({ outcome: 'reused' });
          throw e;
        }
      },
    };
  }

  readonly signinObserver: SigninObserver = {
    throttled: (buckets, burst) => {
      for (const bucket of buckets) this.signinThrottled.inc({ bucket });
      if (burst) this.signinBursts.inc();
    },
  };

  readonly rateLimitObserver: RateLimitObserver = {
    limited: (workspaceId, rateClass) => {
      if (this.limitedWorkspaces.size < NAMED_WORKSPACES) this.limitedWorkspaces.add(workspaceId);
      this.rateLimited.inc({ workspace: this.limitedWorkspaces.has(workspaceId) ? workspaceId : 'other', class: rateClass });
    },
  };

  /** What the audit-chain alarm tells (once per workspace): broken sets the workspace's series, held removes it. */
  readonly auditChainObserver: AuditChainObserver = {
    broken: (workspace) => this.chainBroken.set({ workspace }, 1),
    held: (workspace) => this.chainBroken.remove({ workspace }),
  };

  readonly deliveryObserver: DeliveryObserver = {
    attempted: (a) => {
      this.deliveryAttempts.inc({ target_kind: a.targetKind, outcome: a.state });
      this.attemptDuration.observe({ target_kind: a.targetKind }, a.durationMs / 1000);
      if (a.latencyMs !== null) this.deliveryLatency.observe({ target_kind: a.targetKind }, Math.max(0, a.latencyMs) / 1000);
    },
  };

  /** Reads lag and the outbox from the database, bounded in time. */
  private async sample(): Promise<void> {
    const { db } = this.sources;
    await db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL statement_timeout = ${SAMPLE_TIMEOUT_MS}`);
      const outbox = await trx.raw(`SELECT target_kind, state, count(*)::int AS n FROM webhook_deliveries WHERE state IN ('pending', 'dead') GROUP BY 1, 2`);
      const rows = outbox.rows as { target_kind: string; state: string; n: number }[];
      for (const target_kind of ['endpoint', 'channel', 'rule']) {
        for (const state of ['pending', 'dead'])
          this.deliveries.set({ target_kind, state }, rows.find((r) => r.target_kind === target_kind && r.state === state)?.n ?? 0);
      }
      const actions = await trx.raw(
        `SELECT status, count(*)::int AS n, count(*) FILTER (WHERE idx = 0)::int AS runs,
                coalesce(extract(epoch FROM now() - min(event_at) FILTER (WHERE status = 'pending')), 0)::float8 AS age
           FROM automation_actions GROUP BY ROLLUP (status)`,
      );
      const byStatus = actions.rows as { status: string | null; n: number; runs: number; age: number }[];
      for (const status of ['pending', 'succeeded', 'failed', 'skipped'])
        this.automationActions.set({ status }, byStatus.find((r) => r.status === status)?.n ?? 0);
      const total = byStatus.find((r) => r.status === null);
      this.automationRuns.set(total?.runs ?? 0);
      // The rules worker's lag: its oldest action not yet run, from its event's commit.
      this.lagSeconds.set({ process: 'automation' }, Number(total?.age ?? 0));
      if (this.sources.storeKind !== 'postgres') return;
      // Events of workspaces with rules the rules worker has not decided on yet.
      const undecided = await trx.raw(
        `SELECT coalesce(sum(greatest(h.last_seq - c.seq, 0)), 0)::bigint AS lag FROM automation_cursors c JOIN event_heads h USING (tenant_id)
          WHERE EXISTS (SELECT 1 FROM automation_rules r WHERE r.tenant_id = c.tenant_id AND r.enabled)`,
      );
      this.lagEvents.set({ process: 'automation' }, Number(undecided.rows[0]?.lag ?? 0));
      const models = await trx.raw(
        `SELECT coalesce(sum(h.last_seq - coalesce(c.last_seq, 0)), 0)::bigint AS lag
           FROM event_heads h LEFT JOIN projection_checkpoints c USING (tenant_id)`,
      );
      this.lagEvents.set({ process: 'read_models' }, Number(models.rows[0]?.lag ?? 0));
      const subs = (await trx('subscription_checkpoints').select('name', 'position')) as { name: string; position: string }[];
      for (const s of subs) {
        const m = /^(\d+):(\d+)$/.exec(s.position);
        if (!m) continue;
        const behind = await trx.raw(
          `SELECT count(*)::bigint AS n, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
             FROM events WHERE (tx_id, position) > (?::xid8, ?::bigint)`,
          [m[1]!, m[2]!],
        );
        this.lagEvents.set({ process: s.name }, Number(behind.rows[0]?.n ?? 0));
        this.lagSeconds.set({ process: s.name }, Number(behind.rows[0]?.age ?? 0));
      }
    });
  }

  /** The text exposition, after sampling the database (a failed sample is counted, not fatal). */
  async render(): Promise<{ contentType: string; body: string }> {
    try {
      await this.sample();
    } catch (e) {
      this.sampleErrors.inc();
      this.sources.log.warn({ err: e }, 'metrics: sampling the database failed');
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** GET /metrics; with a token, only for `Authorization: Bearer <token>` (else 401). */
  handler(token: string | null): RequestHandler {
    const want = token ? createHash('sha256').update(token).digest() : null;
    return (req, res, next) => {
      if (want) {
        const m = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
        const got = createHash('sha256')
          .update(m?.[1] ?? '')
          .digest();
        if (!m || !timingSafeEqual(got, want)) {
          res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
          next(new AppError(401, 'unauthenticated', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.'));
          return;
        }
      }
      this.render().then(
        (out) => void res.type(out.contentType).send(out.body),
        (e: unknown) => next(e),
      );
    };
  }
}
