// Pure SLA rules. A policy's targets run from fixed starts (creation, a customer's
// wait, creation for resolution) and are settled once: met (by the reply or the
// close, at or before the due date) or breached (the due date passed first). The
// decision is recomputed from the conversation's facts whenever they change and
// when a due date passes; it emits only what differs from the conversation's
// current SLA, so a second evaluation (another process, a retry) emits nothing.
//
// Snoozing and reopening, after Zendesk's SLA rules (see docs/api-guide.md, SLAs and response statistics):
// - first and next response keep running while snoozed (the customer is still waiting);
// - resolution pauses while snoozed (Zendesk's pausable targets stop in pending and on-hold)
//   and resumes with the time it had left when the conversation opens again;
// - closing settles resolution (met if in time) and cancels response targets still pending;
// - a reopened conversation keeps its settled targets; a new customer message starts a
//   new next-response target.
import { BadRequest, NotFound, Unprocessable } from '../../platform/errors.js';
import { addSeconds, secondsBetween, type BusinessCalendar } from '../business-hours/index.js';
import { checkConversationQuery } from '../conversations/index.js';
import type { SlaEvent, SlaPolicyEvent, Target } from './sla.events.js';

export const MAX_POLICIES = 100;

export interface PolicyMatch {
  priority?: string[];
  team_id?: string[];
  channel_id?: string[];
  /** a tree of the conversations filter language (POST /api/conversations/search) */
  query?: Record<string, unknown>;
}

export interface Policy {
  id: string;
  name: string;
  match: PolicyMatch;
  first_response_target_seconds: number | null;
  next_response_target_seconds: number | null;
  resolution_target_seconds: number | null;
  business_hours: boolean;
}

export type PolicyInput = Omit<Policy, 'id'>;

export function decideCreatePolicy(id: string, p: PolicyInput, count: number): SlaPolicyEvent[] {
  if (count >= MAX_POLICIES) throw new Unprocessable('limit_reached', `A workspace keeps at most ${MAX_POLICIES} SLA policies; delete one.`);
  checkPolicy(p);
  return [{ type: 'sla_policy.created', aggregate_type: 'sla_policy', aggregate_id: id, payload: { id, ...p } }];
}

export function decideUpdatePolicy(id: string, p: PolicyInput, existing: Policy | null): SlaPolicyEvent[] {
  if (!existing) throw new NotFound('not_found', `No SLA policy ${id}.`);
  checkPolicy(p);
  return [{ type: 'sla_policy.updated', aggregate_type: 'sla_policy', aggregate_id: id, payload: { id, ...p } }];
}

export function decideDeletePolicy(id: string, existing: Policy | null): SlaPolicyEvent[] {
  if (!existing) throw new NotFound('not_found', `No SLA policy ${id}.`);
  return [{ type: 'sla_policy.deleted', aggregate_type: 'sla_policy', aggregate_id: id, payload: { id } }];
}

function checkPolicy(p: PolicyInput): void {
  // 400 invalid_query naming the path under match.query, as a view's or a search's tree
  if (p.match.query !== undefined) checkConversationQuery(p.match.query, 'match.query');
  if (p.first_response_target_seconds === null && p.next_response_target_seconds === null && p.resolution_target_seconds === null)
    throw new BadRequest('missing_field', 'A policy sets at least one target.', 'first_response_target_seconds');
}

/** What the decision reads of the conversation (its row and its response statistics). */
export interface SlaFacts {
  conversationId: string;
  createdAt: Date;
  state: 'open' | 'closed' | 'snoozed';
  /** when the state last changed (the snooze, the reopening, the close) */
  stateChangedAt: Date;
  priority: string;
  teamId: string | null;
  channelId: string;
  firstResponseAt: Date | null;
  lastResponseAt: Date | null;
  /** the customer's wait that started after the last teammate reply (null: nobody waits) */
  awaitingSince: Date | null;
  lastClosedAt: Date | null;
  /** the policies whose match.query the conversation matches (read with the facts; absent: none) */
  queryMatches?: readonly string[];
}

/** The conversation's SLA as it stands (its read model row); null before any applied. */
export interface CurrentSla {
  policyId: string | null;
  firstResponseDueAt: Date | null;
  nextResponseDueAt: Date | null;
  nextResponseSince: Date | null;
  resolutionDueAt: Date | null;
  resolutionRemainingSeconds: number | null;
  /** targets settled once for all (met or breached): first_response, resolution */
  settled: Target[];
}

export interface SlaState {
  facts: SlaFacts | null;
  current: CurrentSla | null;
  policies: Policy[];
  calendar: BusinessCalendar | null;
}

const matches = (p: Policy, f: SlaFacts, m: PolicyMatch = p.match) =>
  (!m.query || (f.queryMatches ?? []).includes(p.id)) &&
  (!m.priority || m.priority.includes(f.priority)) &&
  (!m.team_id || (f.teamId !== null && m.team_id.includes(f.teamId))) &&
  (!m.channel_id || m.channel_id.includes(f.channelId));

/** The first policy, in the workspace's order, whose every given key matches. */
export const policyFor = (policies: readonly Policy[], f: SlaFacts): Policy | null => policies.find((p) => matches(p, f)) ?? null;

const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A conversation's SLA before any policy applied. */
export const NO_SLA: CurrentSla = {
  policyId: null,
  firstResponseDueAt: null,
  nextResponseDueAt: null,
  nextResponseSince: null,
  resolutionDueAt: null,
  resolutionRemainingSeconds: null,
  settled: [],
};

/** What each target's rule reads, and where it puts the met and breached events it decides. */
interface Evaluation {
  f: SlaFacts;
  cur: CurrentSla;
  policy: Policy;
  cal: BusinessCalendar | null;
  changedPolicy: boolean;
  closed: boolean;
  now: Date;
  events: SlaEvent[];
}

const settledEvent = (e: Evaluation, target: Target, due: Date, metAt: Date | null): SlaEvent => {
  const payload = { conversation_id: e.f.conversationId, policy_id: e.policy.id, target, due_at: due.toISOString() };
  return metAt
    ? {
        type: 'conversation.sla_met',
        aggregate_type: 'conversation_sla',
        aggregate_id: e.f.conversationId,
        payload: { ...payload, met_at: metAt.toISOString() },
      }
    : { type: 'conversation.sla_breached', aggregate_type: 'conversation_sla', aggregate_id: e.f.conversationId, payload };
};

/** Settles a target: met when `at` is at or before its due date, breached once the due date passed; false: still pending. */
function settle(e: Evaluation, target: Target, due: Date, at: Date | null): boolean {
  if (at && at.getTime() <= due.getTime()) e.events.push(settledEvent(e, target, due, at));
  else if (due.getTime() <= e.now.getTime()) e.events.push(settledEvent(e, target, due, null));
  else return false;
  return true;
}

/** First response, from creation to the first teammate reply: its due date while pending. */
function firstResponseDue(e: Evaluation): Date | null {
  const { f, cur, policy } = e;
  if (!policy.first_response_target_seconds || cur.settled.includes('first_response')) return null;
  const due = !e.changedPolicy && cur.firstResponseDueAt ? cur.firstResponseDueAt : addSeconds(e.cal, f.createdAt, policy.first_response_target_seconds);
  // A close without a reply cancels it: neither met nor breached.
  if (!due || (!f.firstResponseAt && e.closed)) return null;
  return settle(e, 'first_response', due, f.firstResponseAt) || f.firstResponseAt ? null : due;
}

/** Next response, from a customer message after a teammate reply to the next teammate reply: its due date and start while pending. */
function nextResponseDue(e: Evaluation): { next: Date | null; since: Date | null } {
  const { f, cur, policy } = e;
  if (!policy.next_response_target_seconds) return { next: null, since: null };
  // The wait the current row times ended (a teammate replied): settle it if it was still pending.
  if (cur.nextResponseSince && cur.nextResponseDueAt && !same(cur.nextResponseSince, f.awaitingSince) && f.lastResponseAt)
    settle(e, 'next_response', cur.nextResponseDueAt, f.lastResponseAt);
  if (!f.firstResponseAt || !f.awaitingSince || e.closed) return { next: null, since: null };
  const since = f.awaitingSince;
  const sameWait = !e.changedPolicy && same(cur.nextResponseSince, since);
  // This wait's target was settled already (the row keeps its start without a due date).
  if (sameWait && !cur.nextResponseDueAt) return { next: null, since };
  const due = sameWait && cur.nextResponseDueAt ? cur.nextResponseDueAt : addSeconds(e.cal, since, policy.next_response_target_seconds);
  return { next: due && !settle(e, 'next_response', due, null) ? due : null, since };
}

/** Resolution, from creation to the close, paused while snoozed: its due date while running, or the seconds left while paused. */
function resolutionDue(e: Evaluation): { resolution: Date | null; remaining: number | null } {
  const { f, cur, policy } = e;
  if (!policy.resolution_target_seconds || cur.settled.includes('resolution')) return { resolution: null, remaining: null };
  let due: Date | null = cur.resolutionDueAt;
  let left: number | null = null;
  if (e.changedPolicy || (!cur.resolutionDueAt && cur.resolutionRemainingSeconds === null))
    due = addSeconds(e.cal, f.createdAt, policy.resolution_target_seconds);
  else if (cur.resolutionRemainingSeconds !== null) [due, left] = [null, cur.resolutionRemainingSeconds];
  if (f.state === 'snoozed' && due) {
    // Paused at the snooze: keep what was left then.
    const passed = due.getTime() <= f.stateChangedAt.getTime();
    [due, left] = passed ? [due, 0] : [null, secondsBetween(e.cal, f.stateChangedAt, due)];
  } else if (f.state !== 'snoozed' && left !== null) [due, left] = [addSeconds(e.cal, f.stateChangedAt, left), null];
  if (e.closed) {
    // Closed while paused counts as in time (the clock had time left).
    const closedAt = f.lastClosedAt ?? f.stateChangedAt;
    if (due) settle(e, 'resolution', due, closedAt);
    else if (left !== null) e.events.push(settledEvent(e, 'resolution', closedAt, closedAt));
    return { resolution: null, remaining: null };
  }
  if (due) return { resolution: settle(e, 'resolution', due, null) ? null : due, remaining: null };
  return { resolution: null, remaining: left };
}

export function decideSla(s: SlaState, now: Date): SlaEvent[] {
  const f = s.facts;
  if (!f) return [];
  const cur = s.current ?? NO_SLA;
  const policy = policyFor(s.policies, f);
  if (!policy && cur.policyId === null) return [];
  const events: SlaEvent[] = [];
  const changedPolicy = (policy?.id ?? null) !== cur.policyId;
  const e: Evaluation | null = policy
    ? { f, cur, policy, cal: policy.business_hours ? s.calendar : null, changedPolicy, closed: f.state === 'closed', now, events }
    : null;
  const first = e ? firstResponseDue(e) : null;
  const { next, since } = e ? nextResponseDue(e) : { next: null, since: null };
  const { resolution, remaining } = e ? resolutionDue(e) : { resolution: null, remaining: null };
  // Met and breached events clear their target's due date in the read model; an applied
  // event goes first only when the pending state differs from what those leave.
  const clearedBy = (t: Target) => events.some((x) => (x.type === 'conversation.sla_met' || x.type === 'conversation.sla_breached') && x.payload.target === t);
  const after = (d: Date | null, t: Target) => (clearedBy(t) ? null : d);
  const unchanged =
    !changedPolicy &&
    same(first, after(cur.firstResponseDueAt, 'first_response')) &&
    same(next, after(cur.nextResponseDueAt, 'next_response')) &&
    same(since, cur.nextResponseSince) &&
    same(resolution, after(cur.resolutionDueAt, 'resolution')) &&
    remaining === cur.resolutionRemainingSeconds;
  if (unchanged) return events;
  const applied: SlaEvent = {
    type: 'conversation.sla_applied',
    aggregate_type: 'conversation_sla',
    aggregate_id: f.conversationId,
    payload: {
      conversation_id: f.conversationId,
      policy_id: policy?.id ?? null,
      first_response_due_at: iso(first),
      next_response_due_at: iso(next),
      next_response_since: iso(since),
      resolution_due_at: iso(resolution),
      resolution_remaining_seconds: remaining,
    },
  };
  return [applied, ...events];
}
