import type { Knex } from 'knex';
import { appendFunction } from './061_append_probes_by_key.js';

// es_append's check for an already stored first event (a retry) asks for the event's id as a range of the workspace's
// ids in id order, one row: the one index that gives the workspace's events in id order, the unique key on
// (tenant_id, id), finds it or nothing in one probe, and any other plan would have to read the workspace's events
// and sort them before it could answer its first row. Asked as `EXISTS (… tenant_id = … AND id = …)`, every index
// that starts with tenant_id could answer it, and they cost the same while `events` has no statistics. The range is
// written as two bounds, not `id = …`: an equality would make the order asked for one the planner drops, and the tie
// would be back. (An open range, `id >= …` alone, held the plan too, but read the next event's entry on every append
// and checked its visibility: the append bench 0.911 of before, in three alternated pairs.)
//
// PL/pgSQL keeps the plan it made for the check for as long as the connection lives, until the table's statistics
// change. Made while `events` was a few pages and never analyzed (a new database, before autovacuum's first visit:
// every bench run, and an installation's first minute), the planner took the index created last (plancat.c lists
// them that way), events_by_aggregate, and read the workspace's events with the id as a filter: 2,000 to 5,000 events
// on each append of the reply bench, 6 of a group's 8.4 ms in Postgres (auto_explain; docs/performance.md, "Kept
// plans in a database's first minute"). With the aggregate added to the condition the tie went to events_by_type.
const WORKSPACE = '(SELECT p_tenant)';
const FIRST_ID = `(p_events->0->>'id')::uuid`;
const ORDERED = `(SELECT id FROM events WHERE tenant_id = ${WORKSPACE} AND id >= ${FIRST_ID} AND id <= ${FIRST_ID} ORDER BY id LIMIT 1) = ${FIRST_ID}`;

export async function up(knex: Knex): Promise<void> {
  for (const linked of [false, true]) await knex.raw(appendFunction(WORKSPACE, linked, ORDERED));
}

export async function down(knex: Knex): Promise<void> {
  for (const linked of [false, true]) await knex.raw(appendFunction(WORKSPACE, linked));
}
