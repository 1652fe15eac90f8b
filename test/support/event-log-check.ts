// Every event the service appends must match its declaration in the catalogue
// (design invariant 12). Each test database the service wrote to is checked,
// whole, before it is dropped; the root hook in global-fixture.ts fails the
// run if any event anywhere did not conform.
import type { Knex } from 'knex';
import { eventCatalogue } from '../../src/capabilities/index.js';

const catalogue = eventCatalogue();
export const eventLogProblems: string[] = [];
export const eventLogStats = { databases: 0, events: 0 };

export async function checkEventLog(db: Knex, label: string): Promise<void> {
  const rows: { seq: string; type: string; aggregate_type: string; payload: unknown; tenant_id: string }[] = await db('events').select(
    'tenant_id',
    'seq',
    'type',
    'aggregate_type',
    'payload',
  );
  eventLogStats.databases++;
  eventLogStats.events += rows.length;
  for (const r of rows) {
    const problems = catalogue.check(r);
    if (problems.length) eventLogProblems.push(`${label} tenant ${r.tenant_id} seq ${r.seq} ${r.type}: ${problems.join('; ')}`);
  }
}
