// Reopens snoozed conversations whose snoozed_until has passed, through the
// normal command path: the wake-up is an `open` part by the system, an event
// like any other, so receivers and the feed see it.
import type { CoreDeps, Worker } from '../capability.js';
import { AppError } from '../../platform/errors.js';
import { unsnooze } from './conversations.commands.js';

const EVERY_MS = 15_000;
const BATCH = 100;

export interface UnsnoozeWorker extends Worker {
  /** one pass; returns how many conversations were reopened */
  tick(): Promise<number>;
}

export function unsnoozeWorker(deps: CoreDeps): UnsnoozeWorker {
  const { db, shell, clock, ids, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function pass(): Promise<number> {
    const now = clock.now();
    // Across tenants on purpose: the worker serves every workspace.
    const due: { tenant_id: string; id: string }[] = await db('conversations')
      .where({ state: 'snoozed' })
      .andWhere('snoozed_until', '<=', now)
      .orderBy('snoozed_until')
      .limit(BATCH)
      .select('tenant_id', 'id');
    let reopened = 0;
    for (const c of due) {
      try {
        // The scan crosses workspaces (the owner role); each reopening acts as its own workspace.
        const { events } = await deps.scope.run(c.tenant_id, () =>
          shell.execute({ tenantId: c.tenant_id, now, actor: { type: 'system', id: 'unsnooze' } }, unsnooze(c.id, ids.uuid(), now)),
        );
        reopened += events.length > 0 ? 1 : 0;
      } catch (e) {
        if (!(e instanceof AppError)) log.warn({ err: e, conversation_id: c.id }, 'unsnooze failed');
      }
    }
    return reopened;
  }

  const tick = () => (running ??= pass().finally(() => (running = null)));
  return {
    name: 'unsnooze',
    tick,
    async start() {
      timer = setInterval(() => void tick().catch((e) => log.warn({ err: e }, 'unsnooze pass failed')), EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
