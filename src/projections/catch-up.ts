// The catch-up projector: follows the log and applies what the inline path
// missed. With the Postgres store every command projects inline, so this only
// runs for EventStoreDB, where it covers a crash between append and projection.
import type { Knex } from 'knex';
import { ForeignCheckpoint, type EventStore, type Subscription } from '../eventstore/store.port.js';
import type { Logger } from '../platform/logger.js';
import { ProjectionGap, type ProjectionEngine } from './engine.js';

const NAME = 'read_models';

export async function startCatchUpProjector(db: Knex, store: EventStore, engine: ProjectionEngine, log: Logger): Promise<Subscription> {
  const row = await db('subscription_checkpoints').where({ name: NAME }).first('position');
  try {
    return subscribe(db, store, engine, log, row?.position ?? null);
  } catch (e) {
    // Written under the other store (the service was switched): its position means nothing here.
    if (e instanceof ForeignCheckpoint) {
      throw new Error(
        `catch-up projector: subscription_checkpoints row "${NAME}" holds the ${e.writtenBy} store's checkpoint "${e.checkpoint}", and this service runs on ${e.store}. ` +
          `The read models were built from the other log: rebuild them from this one (cli rebuild), then delete that row.`,
        { cause: e },
      );
    }
    throw e;
  }
}

function subscribe(db: Knex, store: EventStore, engine: ProjectionEngine, log: Logger, after: string | null): Subscription {
  return store.subscribe({
    after,
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
