import { Type } from '@sinclair/typebox';
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';
import { keyProbes, keySlots, PLANNED_PER_CALL } from '../../platform/db/prepared.js';
import { arrayOf, bool, constant, dateTime, integer, nullable, object, str, uuid, type Static } from '../../api/schemas.js';
import { businessCalendar, secondsBetween, type BusinessCalendar } from '../business-hours/index.js';
import { conversationFacts, conversationMatches, conversationQuerySchema } from '../conversations/index.js';
import type { ConversationMetrics, ConversationSla, ConversationStatistics } from './sla.schemas.js';
import { MAX_POLICIES, type CurrentSla, type Policy, type PolicyMatch, type SlaFacts, type SlaState } from './sla.decider.js';
import type { Target } from './sla.events.js';
import type { SLA_POLICIES } from './sla.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

export { slaSchema, statisticsSchema } from './sla.schemas.js';

/** A row of `sla_policies` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type PolicyRow = RowOf<typeof SLA_POLICIES> & {
  match: PolicyMatch;
};

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
      {
        priority: arrayOf(str()),
        team_id: arrayOf(str()),
        channel_id: arrayOf(uuid),
        query: Type.Unsafe<Record<string, unknown>>({
          ...conversationQuerySchema,
          description: `The conversations filter language (as a view or a search): ${conversationQuerySchema.description}`,
        }),
      },
      {
        optional: ['priority', 'team_id', 'channel_id', 'query'],
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
/** `skipped`: told of a policy whose match.query no longer checks (it matches nothing; the others still apply). */
export async function slaState(
  db: Db,
  tenantId: string,
  conversationId: string,
  skipped?: (policyId: string, error: unknown) => void,
): Promise<SlaState & { seq: number | null }> {
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
  // Policies with a match.query: which of them the conversation matches, in one statement.
  const queried = facts ? policies.filter((p) => p.match.query !== undefined) : [];
  const matched = await conversationMatches(
    db,
    tenantId,
    conversationId,
    queried.map((p) => p.match.query),
    skipped && ((i, e) => skipped(queried[i]!.id, e)),
  );
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
        queryMatches: queried.filter((_p, i) => matched[i]).map((p) => p.id),
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

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The `sla` of a conversation_slas row: null when no policy applies and nothing was ever settled. */
function renderSla(r: SlaRow): ConversationSla {
  if (!r.policy_id && r.breaches.length === 0 && r.met.length === 0) return null;
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

interface StatisticsRow {
  created_at: Date;
  first_response_at: Date | null;
  last_response_at: Date | null;
  first_closed_at: Date | null;
  last_closed_at: Date | null;
  reopens: number;
  teammate_replies: number;
  customer_replies: number;
}

/** The `statistics` of a conversation_statistics row: calendar seconds, and business seconds on the workspace's calendar as it is now. */
function renderStatistics(s: StatisticsRow, calendar: BusinessCalendar | null): ConversationStatistics {
  const secs = (to: Date | null) => (to ? secondsBetween(null, s.created_at, to) : null);
  const biz = (to: Date | null) => (to && calendar ? secondsBetween(calendar, s.created_at, to) : null);
  return {
    first_response_at: iso(s.first_response_at),
    first_response_seconds: secs(s.first_response_at),
    first_response_business_seconds: biz(s.first_response_at),
    last_response_at: iso(s.last_response_at),
    first_closed_at: iso(s.first_closed_at),
    last_closed_at: iso(s.last_closed_at),
    resolution_seconds: secs(s.last_closed_at),
    resolution_business_seconds: biz(s.last_closed_at),
    reopens: s.reopens,
    teammate_replies: s.teammate_replies,
    customer_replies: s.customer_replies,
  };
}

/** A conversation's `sla` as answers show it; null when no policy applies, undefined when there is no such conversation. */
export async function conversationSla(db: Db, tenantId: string, conversationId: string): Promise<ConversationSla | undefined> {
  const r: SlaRow | undefined = await db('conversation_slas').where({ tenant_id: tenantId, conversation_id: conversationId }).first();
  return r ? renderSla(r) : undefined;
}

/** A conversation's `statistics` (Intercom's); undefined when there is no such conversation. */
export async function conversationStatistics(db: Db, tenantId: string, conversationId: string): Promise<ConversationStatistics | undefined> {
  const [s, calendar] = await Promise.all([
    db('conversation_statistics').where({ tenant_id: tenantId, conversation_id: conversationId }).first(),
    businessCalendar(db, tenantId),
  ]);
  return s?.created_at ? renderStatistics(s as StatisticsRow, calendar) : undefined;
}

/**
 * The `sla` and `statistics` of conversations by id, for their answers (what this
 * capability adds to conversations' `conversationFields`): one statement for the page or batch (the
 * statistics row joined to the SLA row, whichever exists), and the calendar when a
 * business-seconds figure needs it.
 */
export const conversationMetrics = async (db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, ConversationMetrics>> => {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))].filter(isUuid);
  const out = new Map<string, ConversationMetrics>();
  if (wanted.length === 0) return out;
  // Several ids (a group's answers): a probe of each key, padded to a size that keeps one generic plan (keySlots), up
  // to its largest size; past that, planned per call (see PLANNED_PER_CALL). Both rows are written at the
  // conversation's creation (the two projectors handle conversation.created), so the SLA row is looked up for each
  // statistics row, by its key: a lateral subquery that Postgres may not flatten (OFFSET 0), so the lookup is one
  // probe of the primary key per row. As a plain join, for a workspace Postgres estimates at one row, it was planned
  // as a scan of the workspace's SLA rows for each statistics row, filtered (15,505 rows read for 14; with the ids as
  // a condition on both, 105; test/projections/tenant-statistics.e2e.test.ts).
  const many = wanted.length > 1;
  const slots = many ? keySlots(wanted.length) : null;
  const probes = slots === null ? null : keyProbes('conversation_statistics', 'conversation_id', tenantId, wanted, slots);
  const [statistics, where, bindings]: [string, string, Knex.RawBinding[]] =
    probes !== null
      ? [`(${probes.sql})`, '', probes.bindings]
      : [
          'conversation_statistics',
          `WHERE s.tenant_id = ? AND ${many ? 's.conversation_id = ANY(?::uuid[])' : 's.conversation_id = ?::uuid'}`,
          [tenantId, many ? wanted : wanted[0]!],
        ];
  const res = await db.raw(
    `${many && slots === null ? PLANNED_PER_CALL : ''}SELECT s.conversation_id AS id, s.created_at, s.first_response_at, s.last_response_at, s.first_closed_at, s.last_closed_at,
       s.reopens, s.teammate_replies, s.customer_replies, x.policy_id, x.first_response_due_at, x.next_response_due_at, x.next_response_since,
       x.resolution_due_at, x.resolution_remaining_seconds, x.breaches, x.met
     FROM ${statistics} s
     LEFT JOIN LATERAL (SELECT * FROM conversation_slas x WHERE x.tenant_id = s.tenant_id AND x.conversation_id = s.conversation_id OFFSET 0) x ON true
     ${where}`,
    bindings,
  );
  const rows = res.rows as (StatisticsRow & Omit<SlaRow, 'breaches' | 'met'> & { id: string; breaches: string[] | null; met: string[] | null })[];
  // The calendar only when a figure needs it (a first response or a close to count business seconds to).
  const calendar = rows.some((r) => r.first_response_at || r.last_closed_at) ? await businessCalendar(db, tenantId) : null;
  for (const r of rows) {
    out.set(r.id, {
      // no SLA row (a conversation seeded without one): as if no policy applied
      sla: r.breaches && r.met ? renderSla({ ...r, breaches: r.breaches, met: r.met }) : null,
      statistics: r.created_at ? renderStatistics(r, calendar) : null,
    });
  }
  return out;
};
