import type { Knex } from 'knex';
import type { Config } from '../config.js';
import type { CommandShell } from '../commands/shell.js';
import type { EventStore } from '../eventstore/store.port.js';
import type { PgNotifier } from '../eventstore/pg-notifier.js';
import type { RouteDef } from '../api/routes.js';
import type { Clock } from '../platform/clock.js';
import type { Ids } from '../platform/ids.js';
import type { Logger } from '../platform/logger.js';
import type { Projector } from '../projections/projector.js';
import type { Sealer } from '../platform/crypto/seal.js';
import type { UrlPolicy } from '../dispatch/url-policy.js';

/** What the composition root hands every capability. */
export interface CoreDeps {
  config: Config;
  db: Knex;
  store: EventStore;
  notifier: PgNotifier;
  shell: CommandShell;
  clock: Clock;
  ids: Ids;
  log: Logger;
  sealer: Sealer;
  /** where outbound deliveries (webhooks, channel replies) may go */
  urlPolicy: UrlPolicy;
}

/** A background loop owned by a capability (dispatcher, sweeps); started and stopped by the service. */
export interface Worker {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What a capability gives back: its routes; its projectors and workers are wired separately. */
export interface Capability {
  routes: RouteDef[];
  workers?: Worker[];
}
