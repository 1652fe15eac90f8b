import type { CommandSpec } from '../../commands/command.js';
import { decideCreateView, decideDeleteView, decideUpdateView, type Caller, type NewView, type ViewChanges, type ViewView } from './views.decider.js';
import type { ViewEvent } from './views.events.js';
import { countViews, findView, viewView } from './views.read.js';

export const createView = (input: NewView, caller: Caller): CommandSpec<{ count: number }, ViewEvent> => ({
  name: 'CreateView',
  load: async (db, ctx) => ({ count: await countViews(db, ctx.tenantId) }),
  decide: (s) => decideCreateView(input, caller, s),
});

export const updateView = (id: string, changes: ViewChanges, caller: Caller): CommandSpec<ViewView | null, ViewEvent> => ({
  name: 'UpdateView',
  load: async (db, ctx) => viewView(await findView(db, ctx.tenantId, id)),
  decide: (v) => decideUpdateView(changes, caller, v),
});

export const deleteView = (id: string, caller: Caller): CommandSpec<ViewView | null, ViewEvent> => ({
  name: 'DeleteView',
  load: async (db, ctx) => viewView(await findView(db, ctx.tenantId, id)),
  decide: (v) => decideDeleteView(caller, v),
});
