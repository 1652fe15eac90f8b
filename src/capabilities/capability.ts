// What a capability is to the rest of the service: one module object, listed
// once in src/capabilities/index.ts. The projection engine, route mounting,
// worker start-up and the event catalogue all iterate that list.
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import type { CommandShell } from '../commands/shell.js';
import type { EventStore } from '../eventstore/store.port.js';
import type { EventCatalogue, EventDef } from '../eventstore/catalogue.js';
import type { PgNotifier } from '../eventstore/pg-notifier.js';
import type { RouteDef } from '../api/routes.js';
import type { RateLimits } from '../api/rate-limit/rate-limits.js';
import type { Clock } from '../platform/clock.js';
import type { Ids } from '../platform/ids.js';
import type { Logger } from '../platform/logger.js';
import type { Worker } from '../platform/worker.js';
import type { AnyProjector } from '../projections/engine.js';
import type { Sealer } from '../platform/crypto/seal.js';
import type { Forgettable, PersonalObject } from '../eventstore/forgettable.js';
import type { UrlPolicy } from '../dispatch/url-policy.js';
import type { DeliveryObserver } from '../dispatch/delivery-worker.js';
import type { MailRelay } from '../platform/mail/relay.js';
import type { DnsResolve } from '../platform/dns.js';
import type { TenantScope } from '../platform/db/tenant-scope.js';
import type { Lookup } from '../platform/query/filter.js';
import type { ErrorCodes } from '../platform/errors.js';
import type { Addition, Additions } from './additions.js';
import type { ConnectionEvents } from '../platform/db/connection-watch.js';
import type { Offload } from '../platform/offload.js';

export type { Worker };

/** What the composition root hands every capability. */
export interface CoreDeps {
  config: Config;
  /** the pool; inside a tenant scope its connections are behind that tenant's row-level security */
  db: Knex;
  /**
   * A small pool that stays in the owner role (no row-level security): for work that finds its tenant
   * or crosses tenants (authentication, the signed inbound route's channel, the workers), so that
   * work never switches the role of a request connection. Unset outside the HTTP service (the CLI): use db.
   */
  ownerDb?: Knex;
  /** runs work as one tenant behind row-level security (routes get it from the pipeline; public routes and workers enter it themselves) */
  scope: TenantScope;
  store: EventStore;
  notifier: PgNotifier;
  shell: CommandShell;
  clock: Clock;
  ids: Ids;
  log: Logger;
  sealer: Sealer;
  /** seals, opens and forgets personal data (data keys beside the log) */
  forgettable: Forgettable;
  /** where outbound deliveries (webhooks, channel replies) may go */
  urlPolicy: UrlPolicy;
  /** every event type of every module (webhook and feed filters, docs) */
  catalogue: EventCatalogue;
  /** every module's additions to the others' extension points (additions.ts) */
  additions: Additions;
  /** told about every webhook and channel delivery attempt (metrics) */
  deliveryObserver?: DeliveryObserver;
  /** told when a connection breaks and is made again across a primary change (metrics; the dispatcher's lock) */
  connections?: ConnectionEvents;
  /**
   * The API's rate limits, for a route that applies its own (the signed inbound route, per channel). Unset
   * outside the HTTP service and with RATE_LIMITS=off; authenticated routes are limited by the route pipeline.
   */
  rateLimits?: RateLimits;
  /** told about sign-in attempts the throttle refused (metrics) */
  signinObserver?: SigninObserver;
  /** told when a workspace's log stops, and starts again, extending its last signed checkpoint (one per process: log line and metric) */
  auditChain?: AuditChainObserver;
  /** the outbound SMTP relay (SMTP_RELAY_URL); unset when the operator configured none */
  mail?: MailRelay;
  /** the DNS of the e-mail edge: the system resolver or DNS_SERVERS (src/platform/dns.ts) */
  dns: DnsResolve;
  /** worker threads for parsing untrusted input off the event loop, within a budget (mail) */
  offload: Offload;
  /**
   * Aborted when the HTTP service begins to stop: an answer that never ends by itself (the event stream) ends
   * then, so that a stop does not wait out its connections and the client reconnects elsewhere. Unset outside it.
   */
  stopping?: AbortSignal;
}

export interface CapabilityModule {
  /** the folder's name; its projector carries the same name */
  name: string;
  /** the events this capability appends */
  events: readonly EventDef[];
  /** read models, in the order they apply (parents before children) */
  projectors?: readonly AnyProjector[];
  /** tables kept beside the log (secrets, sign-in state) that only this capability reads and writes */
  tables?: readonly string[];
  /** the error codes it raises, with their statuses and when (the error catalogue) */
  errors?: ErrorCodes;
  /** object types of its answers whose fields are a subject's personal data (sealed in stored answers and exports) */
  personal?: readonly PersonalObject[];
  /** what it adds to other capabilities' extension points (additions.ts): a conversation's answer fields, its views */
  adds?: readonly Addition[];
  routes?(deps: CoreDeps): RouteDef[];
  workers?(deps: CoreDeps): Worker[];
}

export const defineModule = (m: CapabilityModule): CapabilityModule => m;

/** What the sign-in throttle tells the metrics: each refused attempt, by the buckets that refused it. */
export interface SigninObserver {
  /** `burst`: this refusal started a burst against the account (the first in a while) */
  throttled(buckets: readonly ('account' | 'address' | 'device')[], burst: boolean): void;
}

/**
 * Told when a workspace's log does not extend the last checkpoint the service signed (`seq`: the first that
 * fails), and when it does again. The audit-chain capability's alarm (a log line once per workspace) and the
 * metrics implement it.
 */
export interface AuditChainObserver {
  broken(tenantId: string, seq: number, reason: string): void;
  held(tenantId: string): void;
}

/**
 * What a search probes an index with (see Lookup in src/platform/query/filter.ts):
 * the owner pool, outside the request's tenant scope, so that Postgres may use
 * indexes whose operators are not leakproof. Every probe names its tenant.
 */
export const ownerLookup = (deps: Pick<CoreDeps, 'db' | 'ownerDb' | 'scope'>): Lookup => ({
  raw: (sql, bindings) =>
    deps.scope.outside(async () => (await (deps.ownerDb ?? deps.db).raw(sql, bindings as Knex.RawBinding[])) as { rows: Record<string, unknown>[] }),
});
