// Bulk conversation actions as jobs, through the API: made by ids or by a
// query, run by the jobs worker (ticked here, so each step is seen), each
// conversation changed by its own command acting as the job; counted
// (succeeded, failed, skipped) and listed item by item; canceled; refused with
// coded 4xx. The SIGKILL case is test/process/jobs-sigkill.e2e.test.ts.
import { expect } from 'chai';
import { jobsWorker } from '../../src/capabilities/jobs/index.js';
import { claimItems, releaseItem } from '../../src/capabilities/jobs/jobs.repo.js';
import { capabilityFixture } from '../support/capability-fixture.js';
import { ADMIN_SCOPES } from '../support/service.js';

describe('bulk conversation actions (jobs)', function () {
  this.timeout(120_000);
  const fx = capabilityFixture('jobs', { scopes: [...ADMIN_SCOPES, 'audit:read'], env: { WORKERS: 'off' } });
  const worker = () => jobsWorker(fx.t.service.deps);
  const start = async (n: number, tag: string) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const c = await fx.ok(
        fx.t.client.post('/api/conversations', { channel_id: fx.channel.id, body: `Hello ${tag} ${i}`, contact: { email: `${tag}${i}@example.com` } }, fx.as()),
        201,
      );
      ids.push(c.id);
    }
    return ids;
  };
  const bulk = (body: unknown) => fx.t.client.post('/api/conversations/bulk', body, fx.as());
  const job = (id: string) => fx.ok(fx.t.client.get(`/api/jobs/${id}`, fx.as()));

  it('closes conversations by ids: each closed once, by its own event acting as the job; a closed one skipped, an unknown one failed', async () => {
    const ids = await start(6, 'close');
    await fx.ok(fx.t.client.post(`/api/conversations/${ids[0]}/parts`, { message_type: 'close' }, fx.as()), 201);
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const made = await fx.spec({
      when: () => bulk({ ids: [...ids, unknown], action: { close: true } }),
      then: {
        status: 202,
        body: { type: 'job', kind: 'conversations.bulk', status: 'queued', total: 7, pending: 7, action: { close: true } },
        events: ['job.created'],
      },
    });
    expect(await worker().tick()).to.equal(7);
    const done = await job(made.id);
    expect(done).to.include({ status: 'completed', succeeded: 5, skipped: 1, failed: 1, pending: 0, canceled: 0 });
    expect(done.finished_at).to.be.a('string');
    for (const id of ids) expect((await fx.ok(fx.t.client.get(`/api/conversations/${id}`, fx.as()))).state).to.equal('closed');

    // Each changed conversation: exactly one close part, whose event's actor is the job.
    const parts = await fx.t.testDb.db('events').where({ tenant_id: fx.owner.workspaceId, type: 'conversation_part.created' }).whereIn('aggregate_id', ids);
    const closes = parts.filter((e) => e.metadata.actor?.type === 'job');
    expect(closes.map((e) => e.aggregate_id).sort()).to.deep.equal(ids.slice(1).sort());
    expect(closes.every((e) => e.metadata.actor.id === made.id && e.metadata.actor.member_id === fx.owner.memberId)).to.equal(true);
    // The audit log names the job too.
    const audit = await fx.ok(fx.t.client.get(`/api/audit_log?actor_id=${made.id}&per_page=100`, fx.as()));
    expect(audit.data.filter((a: { actor: { type: string } }) => a.actor.type === 'job')).to.have.length(5);

    const items = await fx.ok(fx.t.client.get(`/api/jobs/${made.id}/items?per_page=4`, fx.as()));
    expect(items.data.map((i: { position: number }) => i.position)).to.deep.equal([0, 1, 2, 3]);
    expect(items.data[0]).to.include({ type: 'job_item', conversation_id: ids[0], status: 'skipped', error: null });
    const rest = await fx.ok(
      fx.t.client.get(`/api/jobs/${made.id}/items?per_page=4&starting_after=${encodeURIComponent(items.pages.next.starting_after)}`, fx.as()),
    );
    expect(rest.data.map((i: { status: string }) => i.status)).to.deep.equal(['succeeded', 'succeeded', 'failed']);
    expect(rest.data[2].error.code).to.equal('not_found');
    const feed = await fx.ok(fx.t.client.get('/api/events?types=job.completed', fx.as()));
    expect(feed.data.map((e: { payload: unknown }) => e.payload)).to.deep.include({ job_id: made.id, succeeded: 5, failed: 1, skipped: 1 });
  });

  it('selects by a query when it is made, and applies tags and priority the same way', async () => {
    const ids = await start(3, 'query');
    const tag = await fx.ok(fx.t.client.post('/api/tags', { name: `bulk-${Date.now()}` }, fx.as()), 201);
    const byQuery = await fx.ok(bulk({ query: { field: 'body', operator: '~', value: 'query' }, action: { tags_add: [tag.id] } }), 202);
    expect(byQuery.total).to.equal(3);
    const urgent = await fx.ok(bulk({ ids, action: { priority: 'urgent' } }), 202);
    await worker().tick();
    expect(await job(byQuery.id)).to.include({ status: 'completed', succeeded: 3 });
    expect(await job(urgent.id)).to.include({ status: 'completed', succeeded: 3 });
    for (const id of ids) {
      const c = await fx.ok(fx.t.client.get(`/api/conversations/${id}`, fx.as()));
      expect([c.priority, c.tags.map((t: { id: string }) => t.id)]).to.deep.equal(['urgent', [tag.id]]);
    }
    const none = await bulk({ query: { field: 'body', operator: '~', value: 'nobodysaysthis' }, action: { close: true } });
    expect([none.status, none.body.errors[0].code]).to.deep.equal([422, 'no_conversations']);
  });

  it('cancels a job before it runs: its items are canceled and nothing changes; a finished job cannot be canceled (409)', async () => {
    const ids = await start(3, 'cancel');
    const made = await fx.ok(bulk({ ids, action: { close: true } }), 202);
    await fx.spec({
      when: () => fx.t.client.delete(`/api/jobs/${made.id}`, fx.as()),
      then: { status: 200, body: { status: 'canceled', canceled: 3, pending: 0 }, events: ['job.canceled'] },
    });
    expect(await worker().tick()).to.equal(0);
    for (const id of ids) expect((await fx.ok(fx.t.client.get(`/api/conversations/${id}`, fx.as()))).state).to.equal('open');
    const again = await fx.t.client.delete(`/api/jobs/${made.id}`, fx.as());
    expect([again.status, again.body.errors[0].code]).to.deep.equal([409, 'job_finished']);
  });

  it('gives back the attempt of a claim handed back untried (a spent rate budget, a stop): waiting never uses up attempts', async () => {
    const [id] = await start(1, 'attempts');
    const made = await fx.ok(bulk({ ids: [id], action: { close: true } }), 202);
    const db = fx.t.testDb.db;
    for (let i = 0; i < 7; i++) {
      const claimed = (await claimItems(db, new Date(), 60_000, 10)).find((c) => c.job_id === made.id);
      expect(claimed, `claim ${i}`).to.not.equal(undefined);
      await releaseItem(db, claimed!, new Date(0), true);
    }
    expect((await db('job_items').where({ job_id: made.id }).first()).attempts).to.equal(0);
    expect(await worker().tick()).to.equal(1);
    expect(await job(made.id)).to.include({ status: 'completed', succeeded: 1 });
  });

  it('refuses what is not one bulk action with coded 4xx, making no job', async () => {
    const [id] = await start(1, 'refuse');
    const before = (await fx.ok(fx.t.client.get('/api/events?types=job.created&per_page=100', fx.as()))).data.length;
    for (const body of [
      { action: { close: true } },
      { ids: [id], query: { field: 'state', operator: '=', value: 'open' }, action: { close: true } },
      { ids: [id], action: {} },
      { ids: [id], action: { close: true, open: true } },
      { ids: [id], action: { close: false } },
      { ids: [], action: { close: true } },
      { ids: Array.from({ length: 10_001 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`), action: { close: true } },
      { ids: [id], action: { snooze: 'tomorrow' } },
    ]) {
      const r = await bulk(body);
      expect(r.status, JSON.stringify(body).slice(0, 100)).to.equal(400);
    }
    expect((await fx.t.client.get('/api/jobs/00000000-0000-4000-8000-000000000000', fx.as())).status).to.equal(404);
    expect((await fx.ok(fx.t.client.get('/api/events?types=job.created&per_page=100', fx.as()))).data.length).to.equal(before);
  });
});
