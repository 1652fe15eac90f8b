import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';
import { arrayOf, bool, constant, dateTime, integer, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { businessCalendar, secondsBetween } from '../business-hours/index.js';
import { conversationFacts } from '../conversations/index.js';
import { MAX_POLICIES, type CurrentSla, type Policy, type PolicyMatch, type SlaFacts, type SlaState } from './sla.decider.js';
import { TARGETS, type Target } from './sla.events.js';

export interface PolicyRow {
  tenant_id: string;
  id: string;
  name: string;
  position: string;
  match: PolicyMatch;
  first_response_target_seconds: number | null;
  next_response_target_seconds: number | null;
  resolution_target_seconds: number | null;
  business_hours: boolean;
  created_at: Date;
  updated_at: Date;
}

const policiesOf = (db: Db, tenantId: string) => db('sla_policies').where({ tenant_id: tenantId });

export async function allPolicies(db: Db, tenantId: string): Promise<PolicyRow[]> {
  return policiesOf(db, tenantId)
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .limit(MAX_POLICIES);
}

export async function findPolicy(db: Db, tenantId: string, id: string): Promise<PolicyRow | undefined> {
  return isUuid(id) ? policiesOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export async function countPolicies(db: Db, tenantId: string): Promise<number> {
  return Number((await policiesOf(db, tenantId).count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);
}

export const policyOf = (r: PolicyRow | undefined): Policy | null =>
  r
    ? {
        id: r.id,
        name: r.name,
        match: r.match,
        first_response_target_seconds: r.first_response_target_seconds,
        next_response_target_seconds: r.next_response_target_seconds,
        resolution_target_seconds: r.resolution_target_seconds,
        business_hours: r.business_hours,
      }
    : null;

export const renderPolicy = (r: PolicyRow): SlaPolicy => ({
  type: 'sla_policy',
  ...policyOf(r)!,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

const targetSeconds = nullable(integer({ minimum: 1 }));
export const policySchema = object(
  {
    type: constant('sla_policy'),
    id: uuid,
    name: str(),
    match: object(
      { priority: arrayOf(str()), team_id: arrayOf(str()), channel_id: arrayOf(uuid) },
      {
        optional: ['priority', 'team_id', 'channel_id'],
        description: 'Every given key must match (any of its values); an empty match applies to every conversation.',
      },
    ),
    first_response_target_seconds: targetSeconds,
    next_response_target_seconds: targetSeconds,
    resolution_target_seconds: targetSeconds,
    business_hours: bool,
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'SlaPolicy' },
);
export type SlaPolicy = Static<typeof policySchema>;
export const policyListSchema = object(
  { type: constant('list'), data: arrayOf(policySchema, { maxItems: MAX_POLICIES }) },
  { title: 'SlaPolicyList', description: 'Every SLA policy of the workspace, in the order they are tried: the first that matches a conversation applies.' },
);
export type SlaPolicyList = Static<typeof policyListSchema>;
export const deletedPolicySchema = object({ type: constant('sla_policy'), id: uuid, deleted: constant(true) }, { title: 'DeletedSlaPolicy' });
export type DeletedSlaPolicy = Static<typeof deletedPolicySchema>;

interface SlaRow {
  policy_id: string | null;
  first_response_due_at: Date | null;
  next_response_due_at: Date | null;
  next_response_since: Date | null;
  resolution_due_at: Date | null;
  resolution_remaining_seconds: number | null;
  breaches: string[];
  met: string[];
}

const parseSettled = (entry: string) => {
  const [target, due_at, at] = entry.split('|') as [Target, string, string];
  return { target, due_at, at };
};

const currentOf = (r: SlaRow): CurrentSla => ({
  policyId: r.policy_id,
  firstResponseDueAt: r.first_response_due_at,
  nextResponseDueAt: r.next_response_due_at,
  nextResponseSince: r.next_response_since,
  resolutionDueAt: r.resolution_due_at,
  resolutionRemainingSeconds: r.resolution_remaining_seconds,
  // next_response settles per wait (next_response_since), not once
  settled: [...r.breaches, ...r.met].map((e) => parseSettled(e).target).filter((t) => t !== 'next_response'),
});

/** Everything an SLA decision reads of one conversation: its facts, its SLA, the policies and the calendar. */
export async function slaState(db: Db, tenantId: string, conversationId: string): Promise<SlaState & { seq: number | null }> {
  const [facts, sla, policies, calendar] = await Promise.all([
    db(conversationFacts(db).as('c'))
      .join('conversation_statistics as s', function () {
        this.on('s.tenant_id', 'c.tenant_id').andOn('s.conversation_id', 'c.id');
      })
      .where({ 'c.tenant_id': tenantId, 'c.id': conversationId })
      .first(
        'c.id',
        'c.state',
        'c.priority',
        'c.team_id',
        'c.channel_id',
        's.created_at',
        's.state_changed_at',
        's.first_response_at',
        's.last_response_at',
        's.awaiting_since',
        's.last_closed_at',
        's.seq',
      ),
    db('conversation_slas').where({ tenant_id: tenantId, conversation_id: conversationId }).first(),
    allPolicies(db, tenantId),
    businessCalendar(db, tenantId),
  ]);
  const f: SlaFacts | null = facts
    ? {
        conversationId,
        createdAt: facts.created_at,
        state: facts.state,
        stateChangedAt: facts.state_changed_at ?? facts.created_at,
        priority: facts.priority ?? 'normal',
        teamId: facts.team_id,
        channelId: facts.channel_id,
        firstResponseAt: facts.first_response_at,
        lastResponseAt: facts.last_response_at,
        awaitingSince: facts.awaiting_since,
        lastClosedAt: facts.last_closed_at,
      }
    : null;
  return {
    facts: f,
    current: sla ? currentOf(sla as SlaRow) : null,
    policies: policies.map((p) => policyOf(p)!),
    calendar,
    seq: facts ? Number(facts.seq) : null,
  };
}

/** A conversation's `sla` as answers show it; null when no policy applies, undefined when there is no such conversation. */
export async function conversationSla(db: Db, tenantId: string, conversationId: string): Promise<ConversationSla | undefined> {
  const r: SlaRow | undefined = await db('conversation_slas').where({ tenant_id: tenantId, conversation_id: conversationId }).first();
  if (!r) return undefined;
  if (!r.policy_id && r.breaches.length === 0 && r.met.length === 0) return null;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    policy_id: r.policy_id,
    first_response_due_at: iso(r.first_response_due_at),
    next_response_due_at: iso(r.next_response_due_at),
    resolution_due_at: iso(r.resolution_due_at),
    resolution_paused: r.resolution_remaining_seconds !== null,
    breaches: r.breaches.map(parseSettled).map(({ target, due_at, at }) => ({ target, due_at, breached_at: at })),
    met: r.met.map(parseSettled).map(({ target, due_at, at }) => ({ target, due_at, met_at: at })),
  };
}

export const slaSchema = nullable(
  object(
    {
      policy_id: nullable(uuid),
      first_response_due_at: nullable(dateTime),
      next_response_due_at: nullable(dateTime),
      resolution_due_at: nullable(dateTime),
      resolution_paused: bool,
      breaches: arrayOf(object({ target: oneOfStrings(TARGETS), due_at: dateTime, breached_at: dateTime })),
      met: arrayOf(object({ target: oneOfStrings(TARGETS), due_at: dateTime, met_at: dateTime })),
    },
    {
      title: 'ConversationSla',
      description:
        'The SLA policy that applies and its pending due dates (null once a target is met or breached, or while the resolution clock is paused); settled targets in breaches and met. Null when no policy applies.',
    },
  ),
);
type ConversationSla = Static<typeof slaSchema>;

/** A conversation's `statistics` (Intercom's): calendar seconds, and business seconds on the workspace's calendar as it is now. */
export async function conversationStatistics(db: Db, tenantId: string, conversationId: string): Promise<ConversationStatistics | undefined> {
  const [s, calendar] = await Promise.all([
    db('conversation_statistics').where({ tenant_id: tenantId, conversation_id: conversationId }).first(),
    businessCalendar(db, tenantId),
  ]);
  if (!s || !s.created_at) return undefined;
  const secs = (to: Date | null) => (to ? secondsBetween(null, s.created_at, to) : null);
  const biz = (to: Date | null) => (to && calendar ? secondsBetween(calendar, s.created_at, to) : null);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    first_response_at: iso(s.first_response_at),
    first_response_seconds: secs(s.first_response_at),
    first_response_business_seconds: biz(s.first_response_at),
    last_response_at: iso(s.last_response_at),
    first_closed_at: iso(s.first_closed_at),
    last_closed_at: iso(s.last_closed_at),
    resolution_seconds: secs(s.last_closed_at),
    resolution_business_seconds: biz(s.last_closed_at),
    reopens: s.reopens as number,
    teammate_replies: s.teammate_replies as number,
    customer_replies: s.customer_replies as number,
  };
}

const secondsField = nullable(integer({ minimum: 0 }));
export const statisticsSchema = object(
  {
    first_response_at: nullable(dateTime),
    first_response_seconds: secondsField,
    first_response_business_seconds: secondsField,
    last_response_at: nullable(dateTime),
    first_closed_at: nullable(dateTime),
    last_closed_at: nullable(dateTime),
    resolution_seconds: secondsField,
    resolution_business_seconds: secondsField,
    reopens: integer({ minimum: 0 }),
    teammate_replies: integer({ minimum: 0 }),
    customer_replies: integer({ minimum: 0 }),
  },
  {
    title: 'ConversationStatistics',
    description:
      "Response statistics: the first teammate reply (a comment) and its seconds after creation, the last one, the first and last close and the resolution seconds (creation to the last close), in calendar seconds and in business seconds on the workspace's business hours (null without them), reopens, and replies by teammates and by the customer.",
  },
);
type ConversationStatistics = Static<typeof statisticsSchema>;
