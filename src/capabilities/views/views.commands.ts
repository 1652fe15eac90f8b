import type { CommandSpec } from '../../commands/command.js';
import {
  decideCreateView,
  decideDeleteView,
  decideUpdateView,
  type Caller,
  type NewView,
  type ViewChanges,
  type ViewTally,
  type ViewView,
} from './views.decider.js';
import type { ViewEvent } from './views.events.js';
import { findView, tallyViews, viewView } from './views.read.js';

export const createView = (input: NewView, caller: Caller): CommandSpec<ViewTally, ViewEvent> => ({
  name: 'CreateView',
  load: (db, ctx) => tallyViews(db, ctx.tenantId, caller.memberId),
  decide: (tally) => decideCreateView(input, caller, tally),
});

export const updateView = (id: string, changes: ViewChanges, caller: Caller): CommandSpec<{ view: ViewView | null; tally: ViewTally }, ViewEvent> => ({
  name: 'UpdateView',
  load: async (db, ctx) => ({ view: viewView(await findView(db, ctx.tenantId, id)), tally: await tallyViews(db, ctx.tenantId, caller.memberId) }),
  decide: (s) => decideUpdateView(changes, caller, s),
});

export const deleteView = (id: string, caller: Caller): CommandSpec<ViewView | null, ViewEvent> => ({
  name: 'DeleteView',
  load: async (db, ctx) => viewView(await findView(db, ctx.tenantId, id)),
  decide: (v) => decideDeleteView(caller, v),
});
