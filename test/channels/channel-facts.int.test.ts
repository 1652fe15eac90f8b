// A channel's facts (it exists, its default team) are kept in memory only once
// they are committed: a channel seen inside a transaction that then rolls back
// (a group commit that failed after creating it) is not known afterwards.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { channelFacts } from '../../src/capabilities/channels/index.js';
import { createTestDb, type TestDb } from '../support/db.js';

describe('channel facts (Postgres)', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb('channel_facts');
  });
  after(() => t?.drop());

  const row = (tenantId: string, id: string, team: string | null) => ({
    tenant_id: tenantId,
    id,
    kind: 'api',
    name: 'bridge',
    source: `src-${id}`,
    default_team_id: team,
    created_at: new Date(),
    updated_at: new Date(),
  });

  it('answers for a channel its own transaction wrote, and forgets it when that transaction rolls back', async () => {
    const tenantId = randomUUID();
    const id = randomUUID();
    const inside = await t.db
      .transaction(async (trx) => {
        await trx('channels').insert(row(tenantId, id, 'team-a'));
        const facts = await channelFacts(trx, tenantId, id);
        throw Object.assign(new Error('roll back'), { facts });
      })
      .catch((e: { facts: unknown }) => e.facts);
    expect(inside).to.deep.equal({ defaultTeamId: 'team-a' });
    expect(await channelFacts(t.db, tenantId, id)).to.equal(null);
  });

  it('answers for a committed channel, and null for an unknown or malformed id', async () => {
    const tenantId = randomUUID();
    const id = randomUUID();
    await t.db('channels').insert(row(tenantId, id, null));
    expect(await t.db.transaction((trx) => channelFacts(trx, tenantId, id.toUpperCase()))).to.deep.equal({ defaultTeamId: null });
    expect(await channelFacts(t.db, tenantId, randomUUID())).to.equal(null);
    expect(await channelFacts(t.db, randomUUID(), id)).to.equal(null);
    expect(await channelFacts(t.db, tenantId, 'not-a-uuid')).to.equal(null);
  });
});
