// The catch-up projector: follows the log and applies what the inline path
// missed. With the Postgres store every command projects inline, so this only
// runs for EventStoreDB, where it covers a crash between append and projection.
import type { Knex } from 'knex';
import type { EventStore, Subscription } from '../eventstore/store.port.js';
import type { Logger } from '../platform/logger.js';
import { ProjectionGap, type ProjectionEngine } from './engine.js';

const NAME = 'read_models';

export async function startCatchUpProjector(db: Knex, store: EventStore, engine: ProjectionEngine, log: Logger): Promise<Subscription> {
  const row = await db('subscription_checkpoints').where({ name: NAME }).first('position');
  return store.subscribe({
    after: row?.position ?? null,
    handle: async (events, checkpoint) => {
      await db
        .transaction(async (trx) => {
          await engine.apply(trx, events);
          await trx('subscription_checkpoints').insert({ name: NAME, position: checkpoint }).onConflict('name').merge();
        })
        .catch(async (e) => {
          if (!(e instanceof ProjectionGap)) throw e;
          // Events for that tenant are missing from this page's view: fill from its stream, then retry the page.
          await engine.catchUpTenant(db, store, e.tenantId);
          throw e;
        });
    },
    onError: (e) => log.warn({ err: e }, 'catch-up projector error; retrying'),
  });
}
