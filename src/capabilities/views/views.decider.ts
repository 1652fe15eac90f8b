// Pure custom-view rules: a private view belongs to its member (anyone else
// finds nothing: 404), except that an owner may delete it; creating, changing
// or deleting a workspace view, or making a view one, needs settings:write; an
// update records only what changes. The query was checked against the
// conversations filter language at the edge.
//
// Quotas: at most MAX_WORKSPACE_VIEWS workspace views, and MAX_PRIVATE_VIEWS
// private views per member, each counted on its own: a member's private views
// once counted against the workspace's one limit, so anyone holding
// conversations:read could fill it and block every workspace view for good.
// The counts compute one FILTERed count per view a member sees in one
// statement, so what one member sees stays bounded too (MAX_VISIBLE_VIEWS).
import { Forbidden, NotFound, Unprocessable } from '../../platform/errors.js';
import type { ViewEvent } from './views.events.js';

export const MAX_WORKSPACE_VIEWS = 100;
export const MAX_PRIVATE_VIEWS = 25;
/** The most views one member sees: the workspace's and their own private ones. */
export const MAX_VISIBLE_VIEWS = MAX_WORKSPACE_VIEWS + MAX_PRIVATE_VIEWS;

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

/** Who is asking: their member, whether they may manage workspace views (settings:write), and whether they are an owner. */
export interface Caller {
  memberId: string;
  canManageWorkspace: boolean;
  isOwner: boolean;
}

/** What the quotas count: the workspace's workspace views, and the caller's own private views. */
export interface ViewTally {
  workspace: number;
  private: number;
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

/** Refuses a view the caller's quota of its kind has no room for (the caller owns the private views they make). */
function assertRoom(visibility: Visibility, tally: ViewTally): void {
  if (visibility === 'workspace' && tally.workspace >= MAX_WORKSPACE_VIEWS)
    throw new Unprocessable('limit_reached', `A workspace holds at most ${MAX_WORKSPACE_VIEWS} workspace views; delete one first.`);
  if (visibility === 'private' && tally.private >= MAX_PRIVATE_VIEWS)
    throw new Unprocessable('limit_reached', `A member holds at most ${MAX_PRIVATE_VIEWS} private views; delete one of yours first.`);
}

export function decideCreateView(cmd: NewView, caller: Caller, tally: ViewTally): ViewEvent[] {
  if (cmd.visibility === 'workspace' && !caller.canManageWorkspace) throw needsSettings();
  assertRoom(cmd.visibility, tally);
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

/** What of name, query, sort and order the changes change. */
function changedFields(changes: ViewChanges, v: ViewView): ViewChanges {
  const changed: ViewChanges = {};
  if (changes.name !== undefined && changes.name !== v.name) changed.name = changes.name;
  if (changes.query !== undefined && !sameJson(changes.query, v.query)) changed.query = changes.query;
  if (changes.sort !== undefined && changes.sort !== v.sort) changed.sort = changes.sort;
  if (changes.order !== undefined && changes.order !== v.order) changed.order = changes.order;
  return changed;
}

export function decideUpdateView(changes: ViewChanges, caller: Caller, s: { view: ViewView | null; tally: ViewTally }): ViewEvent[] {
  const v = visibleTo(s.view, caller);
  if (!v) throw new NotFound('view');
  if ((v.visibility === 'workspace' || changes.visibility === 'workspace') && !caller.canManageWorkspace) throw needsSettings();
  // A view changing kind moves to the other quota: made private, it becomes the caller's.
  if (changes.visibility !== undefined && changes.visibility !== v.visibility) assertRoom(changes.visibility, s.tally);
  const changed = changedFields(changes, v);
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

/**
 * An owner holding settings:write may delete any view, another member's private one too: what a workspace
 * keeps is theirs to clear out, and whoever holds settings:write otherwise (an admin) manages workspace
 * views, not members' own. They still read no one's private view (GET stays 404): deleting one tells them
 * only that it was there.
 */
export function decideDeleteView(caller: Caller, current: ViewView | null): ViewEvent[] {
  const v = visibleTo(current, caller) ?? (caller.isOwner && caller.canManageWorkspace ? current : null);
  if (!v) throw new NotFound('view');
  if (v.visibility === 'workspace' && !caller.canManageWorkspace) throw needsSettings();
  return [{ type: 'view.deleted', aggregate_type: 'view', aggregate_id: v.id, payload: { id: v.id, private: v.visibility === 'private' } }];
}
