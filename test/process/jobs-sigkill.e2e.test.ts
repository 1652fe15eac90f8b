// A bulk job survives a SIGKILL of the process running it: 2,000 conversations
// are closed by one job while the service is killed mid-run and started again.
// Afterwards every conversation is closed by exactly one close part (whose
// event acts as the job), the job completed with 2,000 succeeded, and nothing
// failed. A short lease (env) lets the new process take over the dead one's
// claims quickly; every wait is bounded in count and time.
import { expect } from 'chai';
import { eventually, inBatches } from '../support/events.js';
import { serviceCluster } from '../support/service-cluster.js';

const CONVERSATIONS = 2000;
const KILL_AT = 300;

describe('process: a bulk job under SIGKILL', function () {
  this.timeout(600_000);
  const cluster = serviceCluster('jobs_sigkill', { JOBS_BATCH: '20', JOBS_LEASE_MS: '1000', JOBS_POLL_MS: '200' });
  const start = () => cluster.start();

  it('closes each of 2,000 conversations exactly once across a SIGKILL of its worker mid-run', async () => {
    let svc = await start();
    const { tenant, as } = await cluster.workspace(svc, 'Jobs', 'owner@jobkill.example.com');
    const testDb = cluster.testDb;
    const ch = await svc.client.post('/api/channels', { kind: 'api', name: 'Bridge', default_team_id: null, webhook_secret: 'bridge-secret-0123456789' }, as());
    expect(ch.status, ch.text).to.equal(201);
    const ids = await inBatches(
      Array.from({ length: CONVERSATIONS }, (_, i) => i),
      32,
      async (i) => {
        const r = await svc.client.post('/api/conversations', { channel_id: ch.body.id, body: `Order ${i}`, contact: { external_id: `c${i}` } }, as());
        expect(r.status, r.text).to.equal(201);
        return r.body.id as string;
      },
    );

    const made = await svc.client.post('/api/conversations/bulk', { ids, action: { close: true } }, as());
    expect(made.status, made.text).to.equal(202);
    const jobId: string = made.body.id;
    const outcomes = async () =>
      Object.fromEntries(
        (await testDb.db('job_items').where({ tenant_id: tenant, job_id: jobId }).groupBy('status').select('status', testDb.db.raw('count(*)::int AS n'))).map(
          (r: { status: string; n: number }) => [r.status, r.n],
        ),
      ) as Record<string, number>;

    // Killed once it has closed some and has more to close.
    await eventually(outcomes, (o) => (o.succeeded ?? 0) >= KILL_AT, 120_000);
    svc.kill('SIGKILL');
    await svc.exited;
    expect((await outcomes()).pending ?? 0, 'killed mid-run').to.be.greaterThan(0);

    svc = await start();
    const final = await eventually(
      async () => (await svc.client.get(`/api/jobs/${jobId}`, as())).body,
      (j: { status?: string }) => j.status === 'completed',
      180_000,
    );
    expect(final).to.include({ total: CONVERSATIONS, succeeded: CONVERSATIONS, failed: 0, skipped: 0, pending: 0 });

    // Each conversation: exactly one close part, appended as the job; and it is closed.
    const closes: { aggregate_id: string; n: number }[] = (
      await testDb.db.raw(
        `SELECT aggregate_id, count(*)::int AS n FROM events
          WHERE tenant_id = ? AND type = 'conversation_part.created' AND payload->>'part_type' = 'close'
          GROUP BY aggregate_id`,
        [tenant],
      )
    ).rows;
    expect(closes).to.have.length(CONVERSATIONS);
    expect(closes.filter((c) => c.n !== 1)).to.deep.equal([]);
    expect(new Set(closes.map((c) => c.aggregate_id))).to.deep.equal(new Set(ids));
    const byJob = await testDb
      .db('events')
      .where({ tenant_id: tenant, type: 'conversation_part.created' })
      .whereRaw("metadata->'actor'->>'id' = ?", [jobId])
      .count<{ n: string }[]>({ n: '*' });
    expect(Number(byJob[0]!.n)).to.equal(CONVERSATIONS);
    const open = await testDb.db('conversations').where({ tenant_id: tenant }).whereNot({ state: 'closed' }).count<{ n: string }[]>({ n: '*' });
    expect(Number(open[0]!.n)).to.equal(0);
  });
});
