import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import { arrayOf, constant, dateTime, int, integer, nullable, number, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import { foldInMemory } from '../../projections/past-state.js';
import { findConversation, findThread, type ConversationFields } from '../conversations/index.js';
import type { RatedConversation } from './csat.decider.js';
import { csatProjector } from './csat.projection.js';

/** A rating as answers show it: on its conversation and in the rating route's answer. */
export interface RatingRef {
  id: string;
  score: number;
  rated_at: string;
  source: 'api' | 'channel';
}

/** The rating object of an answer (its remark is personal data: a stored answer seals it under the rating's key). */
export const renderRating = (r: RatingRef, remark: string | null): ConversationRating => ({
  type: 'conversation_rating',
  id: r.id,
  score: r.score,
  remark,
  source: r.source,
  rated_at: r.rated_at,
});

export const ratingSchema = object(
  {
    type: constant('conversation_rating'),
    id: uuid,
    score: integer({ minimum: 1, maximum: 5 }),
    remark: nullable(str({ description: "The customer's words: personal data, null once the contact is erased." })),
    source: oneOfStrings(['api', 'channel']),
    rated_at: dateTime,
  },
  { title: 'ConversationRating' },
);
export type ConversationRating = Static<typeof ratingSchema>;

/** The current rating of a conversation: what a new rating replaces, or leaves standing when it is older. */
export interface CurrentRating {
  ratingId: string;
  score: number;
  remark: string | null;
  /** ISO 8601 */
  ratedAt: string;
  source: RatingRef['source'];
}

export async function currentRating(db: Db, tenantId: string, conversationId: string): Promise<CurrentRating | null> {
  const row = (await db('conversation_ratings')
    .where({ tenant_id: tenantId, conversation_id: conversationId })
    .first('rating_id', 'score', 'remark', 'rated_at', 'rated_by_type')) as
    { rating_id: string; score: number; remark: string | null; rated_at: Date; rated_by_type: string } | undefined;
  return row
    ? {
        ratingId: row.rating_id,
        score: row.score,
        remark: row.remark,
        ratedAt: row.rated_at.toISOString(),
        source: row.rated_by_type === 'contact' ? 'channel' : 'api',
      }
    : null;
}

export interface ReportFilter {
  since?: string;
  until?: string;
  teamId?: string;
  assigneeId?: string;
}

interface Stats {
  count: number;
  average: number | null;
  satisfied: number;
  csat: number | null;
  scores: { '1': number; '2': number; '3': number; '4': number; '5': number };
}

const statsSql = `count(*)::int AS count, avg(score)::float8 AS average, count(*) FILTER (WHERE score >= 4)::int AS satisfied,
  count(*) FILTER (WHERE score = 1)::int AS s1, count(*) FILTER (WHERE score = 2)::int AS s2, count(*) FILTER (WHERE score = 3)::int AS s3,
  count(*) FILTER (WHERE score = 4)::int AS s4, count(*) FILTER (WHERE score = 5)::int AS s5`;

const stats = (r: Record<string, unknown>): Stats => {
  const count = Number(r.count ?? 0);
  const satisfied = Number(r.satisfied ?? 0);
  return {
    count,
    average: count ? Math.round(Number(r.average) * 100) / 100 : null,
    satisfied,
    csat: count ? Math.round((satisfied / count) * 10000) / 10000 : null,
    scores: { '1': Number(r.s1 ?? 0), '2': Number(r.s2 ?? 0), '3': Number(r.s3 ?? 0), '4': Number(r.s4 ?? 0), '5': Number(r.s5 ?? 0) },
  };
};

/**
 * The workspace's ratings in the window (by when they were given), overall, by
 * team and by assignee, in one statement (GROUPING SETS). Each conversation
 * counts once, with its latest rating, credited to the team and assignee it had
 * when it was rated.
 */
export async function csatReport(db: Knex, tenantId: string, f: ReportFilter): Promise<CsatReport> {
  const where = ['tenant_id = ?'];
  const bindings: unknown[] = [tenantId];
  if (f.since) (where.push('rated_at >= ?::timestamptz'), bindings.push(f.since));
  if (f.until) (where.push('rated_at < ?::timestamptz'), bindings.push(f.until));
  if (f.teamId) (where.push('team_id = ?'), bindings.push(f.teamId));
  if (f.assigneeId) (where.push('assignee_id = ?::uuid'), bindings.push(f.assigneeId));
  const res = await db.raw(
    `SELECT GROUPING(team_id) AS g_team, GROUPING(assignee_id) AS g_assignee, team_id, assignee_id, ${statsSql}
     FROM conversation_ratings WHERE ${where.join(' AND ')}
     GROUP BY GROUPING SETS ((), (team_id), (assignee_id))`,
    bindings as Knex.RawBinding[],
  );
  const rows = res.rows as Record<string, unknown>[];
  const overall = rows.find((r) => Number(r.g_team) === 1 && Number(r.g_assignee) === 1);
  const order = (a: { count: number; key: string | null }, b: { count: number; key: string | null }) =>
    b.count - a.count || String(a.key ?? '').localeCompare(String(b.key ?? ''));
  const byTeam = rows
    .filter((r) => Number(r.g_team) === 0)
    .map((r) => ({ team_id: (r.team_id as string | null) ?? null, ...stats(r) }))
    .sort((a, b) => order({ count: a.count, key: a.team_id }, { count: b.count, key: b.team_id }));
  const byAssignee = rows
    .filter((r) => Number(r.g_assignee) === 0)
    .map((r) => ({ assignee_id: (r.assignee_id as string | null) ?? null, ...stats(r) }))
    .sort((a, b) => order({ count: a.count, key: a.assignee_id }, { count: b.count, key: b.assignee_id }));
  return {
    type: 'csat_report',
    since: f.since ?? null,
    until: f.until ?? null,
    overall: stats(overall ?? {}),
    by_team: byTeam,
    by_assignee: byAssignee,
  };
}

const scoreCounts = object({ '1': int, '2': int, '3': int, '4': int, '5': int }, { title: 'CsatScoreCounts' });
const statsProperties = {
  count: int,
  average: nullable(number({ description: 'The mean score, 1 to 5 (two decimals); null without ratings.' })),
  satisfied: int,
  csat: nullable(number({ description: 'satisfied / count: the share of ratings of 4 or 5 (0 to 1); null without ratings.' })),
  scores: scoreCounts,
};

export const csatReportSchema = object(
  {
    type: constant('csat_report'),
    since: nullable(dateTime),
    until: nullable(dateTime),
    overall: object(statsProperties, { title: 'CsatStats' }),
    by_team: arrayOf(object({ team_id: nullable(str()), ...statsProperties }, { title: 'CsatByTeam' })),
    by_assignee: arrayOf(object({ assignee_id: nullable(uuid), ...statsProperties }, { title: 'CsatByAssignee' })),
  },
  {
    title: 'CsatReport',
    description:
      'Ratings given in [since, until), each conversation counted once with its latest rating and credited to the team and assignee it had when rated (null: none). Sorted by count, most first. `satisfied` counts 4s and 5s; `csat` is their share.',
  },
);
export type CsatReport = Static<typeof csatReportSchema>;

/** A row of conversation_ratings as the answers read it (rated_at a string where SQL printed it or a fold kept it). */
interface RatingRow {
  rating_id: string;
  score: number;
  remark: string | null;
  rated_at: Date | string;
  rated_by_type: string;
}

const ratingOfRow = (r: RatingRow): ConversationRating =>
  renderRating(
    { id: r.rating_id, score: r.score, rated_at: new Date(r.rated_at).toISOString(), source: r.rated_by_type === 'contact' ? 'channel' : 'api' },
    r.remark,
  );

/**
 * What csat adds to every conversation answer (conversations' `conversationFields`): its latest rating, null
 * without one, selected with the conversation's row (a probe of this table's primary key: no statement of its
 * own). In a past state, the rating then in force, folded from the conversation's own events by this capability's
 * projector as it was folded live (its remark gone when the contact's erasure came by then).
 */
export const ratingField: ConversationFields = {
  schema: { rating: nullable(ratingSchema) },
  none: { rating: null },
  // rated_at in the driver's form (UTC, milliseconds), as the rating route's answer prints it.
  sql: (c) =>
    `(SELECT json_build_object('rating_id', r.rating_id, 'score', r.score, 'remark', r.remark, 'rated_by_type', r.rated_by_type,
       'rated_at', to_char(r.rated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      FROM conversation_ratings r WHERE r.tenant_id = ${c}.tenant_id AND r.conversation_id = ${c}.id)`,
  fromSql: (value) => ({ rating: value ? ratingOfRow(value as RatingRow) : null }),
  past(events: readonly StoredEvent[]) {
    const [row] = foldInMemory([csatProjector], events)('conversation_ratings') as unknown as RatingRow[];
    return { rating: row ? ratingOfRow(row) : null };
  },
};

/** What a rating records of its conversation: null when there is none. */
export async function ratedConversation(db: Db, tenantId: string, id: string): Promise<RatedConversation | null> {
  const c = await findConversation(db, tenantId, id);
  return c
    ? { id: c.id, contactId: c.contact_id, channelId: c.channel_id, assigneeId: c.assignee_id, teamId: c.team_id, contactErased: c.contact_erased }
    : null;
}

/** The conversation a channel filed for a bridge's thread id; null when there is none. */
export const conversationOfThread = async (db: Db, tenantId: string, channelId: string, externalId: string) =>
  (await findThread(db, tenantId, channelId, externalId)) ?? null;
