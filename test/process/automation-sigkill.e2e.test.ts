// An automation rule runs each action exactly once across two service
// processes and a SIGKILL of one of them between the decision and the action:
// 600 conversations are created while both run a rule that adds a note to each;
// one process is killed while actions it decided or claimed are still pending.
// Afterwards every conversation carries exactly one note acting as the rule, every action succeeded once, and nothing failed. A short lease
// (env) lets the survivor take over the dead one's claims quickly; every wait
// is bounded in count and time.
import { expect } from 'chai';
import { eventually, inBatches } from '../support/events.js';
import { serviceCluster } from '../support/service-cluster.js';

const CONVERSATIONS = 600;
const KILL_AT = 100;

describe('process: automation rules under SIGKILL, two processes', function () {
  this.timeout(600_000);
  const cluster = serviceCluster('automation_sigkill', { AUTOMATION_LEASE_MS: '1000', AUTOMATION_POLL_MS: '200' });

  it('notes each of 600 conversations exactly once while one of two processes is SIGKILLed mid-run', async () => {
    const doomed = await cluster.start();
    const survivor = await cluster.start();
    const { tenant, as } = await cluster.workspace(doomed, 'Rules', 'owner@rulekill.example.com');
    const testDb = cluster.testDb;
    const ch = await doomed.client.post(
      '/api/channels',
      { kind: 'api', name: 'Bridge', default_team_id: null, webhook_secret: 'bridge-secret-0123456789' },
      as(),
    );
    expect(ch.status, ch.text).to.equal(201);
    const rule = await doomed.client.post(
      '/api/automation_rules',
      { name: 'Welcome note', on: ['conversation.created'], then: [{ note: 'Welcome: a rule saw this' }] },
      as(),
    );
    expect(rule.status, rule.text).to.equal(201);
    const ruleId: string = rule.body.id;

    const outcomes = async () =>
      Object.fromEntries(
        (
          await testDb
            .db('automation_actions')
            .where({ tenant_id: tenant, rule_id: ruleId })
            .groupBy('status')
            .select('status', testDb.db.raw('count(*)::int AS n'))
        ).map((r: { status: string; n: number }) => [r.status, r.n]),
      ) as Record<string, number>;

    // Created through the survivor while both run the rule (each decides and claims as it gets to them).
    const creating = inBatches(
      Array.from({ length: CONVERSATIONS }, (_, i) => i),
      8,
      async (i) => {
        const r = await survivor.client.post('/api/conversations', { channel_id: ch.body.id, body: `Order ${i}`, contact: { external_id: `c${i}` } }, as());
        expect(r.status, r.text).to.equal(201);
        return r.body.id as string;
      },
    );
    // Killed once some are noted while more are decided and not yet done.
    const atKill = await eventually(outcomes, (o) => (o.succeeded ?? 0) >= KILL_AT && (o.pending ?? 0) > 0, 120_000);
    doomed.kill('SIGKILL');
    await doomed.exited;
    const ids = await creating;
    expect(atKill.succeeded ?? 0, 'killed mid-run').to.be.lessThan(CONVERSATIONS);

    const final = await eventually(outcomes, (o) => (o.succeeded ?? 0) + (o.failed ?? 0) + (o.skipped ?? 0) >= CONVERSATIONS && !o.pending, 180_000);
    expect(final).to.deep.equal({ succeeded: CONVERSATIONS });

    // Each conversation: exactly one note, acting as the rule (a note is not idempotent: run twice, it is there twice).
    const notes: { aggregate_id: string; n: number }[] = (
      await testDb.db.raw(
        `SELECT aggregate_id, count(*)::int AS n FROM events
          WHERE tenant_id = ? AND type = 'conversation_part.created' AND payload->>'part_type' = 'note'
            AND metadata->'actor'->>'type' = 'rule' AND metadata->'actor'->>'id' = ?
          GROUP BY aggregate_id`,
        [tenant, ruleId],
      )
    ).rows;
    expect(notes).to.have.length(CONVERSATIONS);
    expect(notes.filter((c) => c.n !== 1)).to.deep.equal([]);
    expect(new Set(notes.map((c) => c.aggregate_id))).to.deep.equal(new Set(ids));
  });
});
