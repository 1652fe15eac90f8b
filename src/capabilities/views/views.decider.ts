// Pure custom-view rules: a private view belongs to its member (anyone else
// finds nothing: 404); creating, changing or deleting a workspace view, or
// making a view one, needs settings:write; at most MAX_VIEWS per workspace (the
// counts compute one FILTERed count per view in one statement); an update
// records only what changes. The query was checked against the conversations
// filter language at the edge.
import { Forbidden, NotFound, Unprocessable } from '../../platform/errors.js';
import type { ViewEvent } from './views.events.js';

export const MAX_VIEWS = 100;

export type Visibility = 'private' | 'workspace';
export type Sort = 'created_at' | 'updated_at';
export type Order = 'asc' | 'desc';

export interface ViewView {
  id: string;
  name: string;
  query: Record<string, unknown>;
  sort: Sort;
  order: Order;
  visibility: Visibility;
  ownerMemberId: string;
}

/** Who is asking: their member and whether they may manage workspace views (settings:write). */
export interface Caller {
  memberId: string;
  canManageWorkspace: boolean;
}

const needsSettings = () => new Forbidden('missing_scope', 'Creating, changing or deleting a workspace view needs the scope settings:write.');

/** A view as its caller may see it: a workspace view, or a private view of their own. */
export const visibleTo = (v: ViewView | null, caller: Caller): ViewView | null =>
  v && (v.visibility === 'workspace' || v.ownerMemberId === caller.memberId) ? v : null;

export interface NewView {
  id: string;
  name: string;
  query: Record<string, unknown>;
  sort: Sort;
  order: Order;
  visibility: Visibility;
}

export function decideCreateView(cmd: NewView, caller: Caller, s: { count: number }): ViewEvent[] {
  if (cmd.visibility === 'workspace' && !caller.canManageWorkspace) throw needsSettings();
  if (s.count >= MAX_VIEWS) throw new Unprocessable('limit_reached', `A workspace holds at most ${MAX_VIEWS} views; delete one first.`);
  return [{ type: 'view.created', aggregate_type: 'view', aggregate_id: cmd.id, payload: { ...cmd, member_id: caller.memberId } }];
}

export type ViewChanges = Partial<Omit<NewView, 'id'>>;

/** JSON with object keys sorted: jsonb keeps keys in its own order, so a query read back compares by content. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);
const sameJson = (a: unknown, b: unknown) => canonical(a) === canonical(b);

export function decideUpdateView(changes: ViewChanges, caller: Caller, current: ViewView | null): ViewEvent[] {
  const v = visibleTo(current, caller);
  if (!v) throw new NotFound('view');
  if ((v.visibility === 'workspace' || changes.visibility === 'workspace') && !caller.canManageWorkspace) throw needsSettings();
  const changed: ViewChanges = {};
  if (changes.name !== undefined && changes.name !== v.name) changed.name = changes.name;
  if (changes.query !== undefined && !sameJson(changes.query, v.query)) changed.query = changes.query;
  if (changes.sort !== undefined && changes.sort !== v.sort) changed.sort = changes.sort;
  if (changes.order !== undefined && changes.order !== v.order) changed.order = changes.order;
  const event = (payload: ViewChanges & { member_id?: string }, isPrivate: boolean): ViewEvent => ({
    type: 'view.updated',
    aggregate_type: 'view',
    aggregate_id: v.id,
    payload: { id: v.id, private: isPrivate, ...payload },
  });
  const becomes = changes.visibility !== undefined && changes.visibility !== v.visibility ? changes.visibility : null;
  if (becomes === 'workspace') {
    // The feed and webhooks never saw this view: they get it whole now that it is everyone's.
    return [event({ name: v.name, query: v.query, sort: v.sort, order: v.order, ...changed, visibility: 'workspace' }, false)];
  }
  if (becomes === 'private') {
    // That a workspace view left the workspace is the workspace's business (it leaves everyone's list); what
    // its new owner changes with it is theirs alone, and follows as a private event.
    const owner = v.ownerMemberId !== caller.memberId ? { member_id: caller.memberId } : {};
    return [event({ visibility: 'private', ...owner }, false), ...(Object.keys(changed).length ? [event(changed, true)] : [])];
  }
  return Object.keys(changed).length ? [event(changed, v.visibility === 'private')] : [];
}

/** An event about a private view: left out of the change feed and webhooks (view.created says so by its visibility). */
export function privateViewEvent(e: { type: string; payload: Record<string, unknown> }): boolean {
  if (e.type === 'view.created') return e.payload.visibility === 'private';
  return (e.type === 'view.updated' || e.type === 'view.deleted') && e.payload.private === true;
}

export function decideDeleteView(caller: Caller, current: ViewView | null): ViewEvent[] {
  const v = visibleTo(current, caller);
  if (!v) throw new NotFound('view');
  if (v.visibility === 'workspace' && !caller.canManageWorkspace) throw needsSettings();
  return [{ type: 'view.deleted', aggregate_type: 'view', aggregate_id: v.id, payload: { id: v.id, private: v.visibility === 'private' } }];
}
