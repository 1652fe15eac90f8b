// Workspaces that share a pool switch a connection's role only when none of
// theirs is idle: an acquire prefers an idle connection already set to its tenant,
// and a released connection goes to a waiter of its own tenant first (bounded).
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDb } from '../../src/platform/db/database.js';
import { tenantScope, type TenantScope } from '../../src/platform/db/tenant-scope.js';
import { createTestDb, type TestDb } from '../support/db.js';

describe('tenant scope: connection affinity (Postgres)', () => {
  let t: TestDb;
  let db: Knex;
  let scope: TenantScope;
  before(async () => {
    t = await createTestDb('tenant_affinity');
    db = createDb(t.url, { max: 2 });
    scope = tenantScope(db, { enabled: true });
  });
  after(async () => {
    await db?.destroy();
    await t?.drop();
  });

  const backend = async (tenantId: string): Promise<{ pid: number; tenant: string }> =>
    scope.run(tenantId, async () => {
      const r = await db.raw("SELECT pg_backend_pid() AS pid, current_setting('app.tenant_id', true) AS tenant");
      return r.rows[0];
    });

  it('serves two workspaces taking turns from a connection of their own each', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    // Both connections open at once (each held for a moment), one set to each workspace.
    await Promise.all([a, b].map((tenant) => scope.run(tenant, async () => void (await db.raw('SELECT pg_sleep(0.2)')))));
    const seen: Record<string, Set<number>> = { [a]: new Set(), [b]: new Set() };
    for (let i = 0; i < 10; i++) {
      for (const tenant of [a, b]) {
        const r = await backend(tenant);
        expect(r.tenant).to.equal(tenant);
        seen[tenant]!.add(r.pid);
      }
    }
    expect(seen[a]!.size, 'connections workspace a ran on').to.equal(1);
    expect(seen[b]!.size, 'connections workspace b ran on').to.equal(1);
    expect([...seen[a]!][0]).to.not.equal([...seen[b]!][0]);
  });

  it('with every connection busy, hands a released connection to a waiter of its own workspace: 40 queries of two workspaces taking turns two by two switch roles a few times, not 40', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const before = scope.switches();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => backend(Math.floor(i / 2) % 2 === 0 ? a : b)));
    answers.forEach((r, i) => expect(r.tenant).to.equal(Math.floor(i / 2) % 2 === 0 ? a : b));
    const switched = scope.switches() - before;
    // Two connections: each must be set once to its first workspace; a waiter passed four times is served in its turn. In arrival order it would be about 30.
    expect(switched, 'role switches').to.be.at.most(12);
  });
});
