// CSAT through the HTTP API: one rating per conversation (a later one replaces it, with its own event), shown on
// the conversation; the report counts ratings by team and by assignee (those the conversation had when rated);
// a remark is personal content, gone with the contact from answers, the report's table and the log.
import { expect } from 'chai';
import { inboundBody, postInbound, postSigned } from '../support/channels.js';
import { capabilityFixture } from '../support/capability-fixture.js';
import { ADMIN_SCOPES, addMember, type Member, type TestService } from '../support/service.js';
import { rebuildReadModels } from '../../src/projections/rebuild.js';

type Reply = { status: number; text: string; body: any };

describe('CSAT: ratings and the report', function () {
  this.timeout(180_000);
  const fx = capabilityFixture('csat', {
    scopes: [...ADMIN_SCOPES, 'members:invite'],
  });
  let t: TestService;
  let owner: Member;
  let key: string;
  let channel: { id: string; secret: string };
  let ann: Member;
  let bob: Member;
  let team: string;

  before(async () => {
    ({ t, owner, key, channel } = fx);
    ann = await addMember(t, owner, 'agent');
    bob = await addMember(t, owner, 'agent');
    team = (await ok(t.client.post('/api/teams', { name: 'Billing' }, { key }), 201)).id;
  });

  const ok = (r: Promise<Reply>, status = 200) => fx.ok(r, status);
  const start = async (assignee: string | null, teamId: string | null = null) => {
    const c = await ok(
      t.client.post(
        '/api/conversations',
        {
          channel_id: channel.id,
          body: 'Hello',
          contact: { email: `c-${Math.random().toString(36).slice(2)}@example.com` },
          ...(assignee ? { assignee_id: assignee } : {}),
        },
        { key },
      ),
      201,
    );
    if (teamId) await ok(t.client.post(`/api/conversations/${c.id}/parts`, { message_type: 'assignment', team_id: teamId }, { key }), 201);
    return c as { id: string; contact_id: string };
  };
  const rate = (id: string, score: number, remark?: string | null) =>
    t.client.post(`/api/conversations/${id}/ratings`, { score, ...(remark !== undefined ? { remark } : {}) }, { key });
  const report = async (q = '') => ok(t.client.get(`/api/reports/csat${q}`, { key }));
  const ratedEvents = async () => (await ok(t.client.get('/api/events?per_page=100&types=conversation.rated', { key }))).data as any[];

  it('a rating appears on the conversation with its event; a second replaces the first, with an event naming it', async () => {
    const c = await start(ann.memberId);
    const first = await fx.spec({
      when: () => rate(c.id, 2, 'Slow answer'),
      then: {
        status: 201,
        body: { type: 'conversation_rating', score: 2, remark: 'Slow answer', source: 'api', conversation_id: c.id },
        events: ['conversation.rated'],
      },
    });
    const conv = await ok(t.client.get(`/api/conversations/${c.id}`, { key }));
    expect(conv.rating).to.deep.equal({ type: 'conversation_rating', id: first.id, score: 2, remark: 'Slow answer', source: 'api', rated_at: first.rated_at });

    const second = await ok(rate(c.id, 5), 201);
    expect(second).to.include({ score: 5, remark: null });
    expect((await ok(t.client.get(`/api/conversations/${c.id}`, { key }))).rating).to.include({ id: second.id, score: 5, remark: null });
    const events = (await ratedEvents()).filter((e) => e.aggregate_id === c.id);
    expect(events.map((e) => [e.payload.score, e.payload.replaces])).to.deep.equal([
      [2, null],
      [5, first.id],
    ]);
    expect(events[0].payload).to.include({ remark: 'Slow answer', assignee_id: ann.memberId, team_id: null, contact_id: c.contact_id });
    // One rating per conversation: the report counts it once, with its latest score.
    const r = await report();
    expect(r.by_assignee.find((a: { assignee_id: string }) => a.assignee_id === ann.memberId)).to.include({ count: 1, average: 5 });
  });

  it('a past state (?as_of_seq=) shows the rating then in force: none before the first, the first until the second', async () => {
    const c = await start(null);
    const first = await ok(rate(c.id, 3, 'Fine'), 201);
    await ok(rate(c.id, 4), 201);
    const seqs = (await ratedEvents()).filter((e) => e.aggregate_id === c.id).map((e) => e.seq as number);
    const asOf = async (seq: number) => (await ok(t.client.get(`/api/conversations/${c.id}?as_of_seq=${seq}`, { key }))).rating;
    expect(await asOf(seqs[0]! - 1)).to.equal(null);
    expect(await asOf(seqs[0]!)).to.deep.equal({
      type: 'conversation_rating',
      id: first.id,
      score: 3,
      remark: 'Fine',
      source: 'api',
      rated_at: first.rated_at,
    });
    expect(await asOf(seqs[1]!)).to.include({ score: 4, remark: null });
  });

  it('refuses a score outside 1 to 5 and an unknown conversation, appending nothing', async () => {
    const c = await start(null);
    for (const score of [0, 6, 3.5]) {
      await fx.spec({ when: () => rate(c.id, score), then: { status: 400, events: [] } });
    }
    expect((await rate(c.id, '4' as unknown as number)).status).to.equal(400);
    await ok(rate('00000000-0000-4000-8000-000000000000', 4), 404);
    expect((await ok(t.client.get(`/api/conversations/${c.id}`, { key }))).rating).to.equal(null);
  });

  it('the report counts ratings by assignee and by team (those the conversation had when rated), overall and filtered', async () => {
    const baseline = await report();
    const annIn = baseline.by_assignee.find((a: { assignee_id: string }) => a.assignee_id === ann.memberId)?.count ?? 0;
    // Ann: 5, 4, 1 (in the team); Bob: 3, 5; nobody: 2.
    const rated: [string | null, string | null, number][] = [
      [ann.memberId, team, 5],
      [ann.memberId, team, 4],
      [ann.memberId, null, 1],
      [bob.memberId, team, 3],
      [bob.memberId, null, 5],
      [null, null, 2],
    ];
    const convs: string[] = [];
    for (const [assignee, teamId, score] of rated) {
      const c = await start(assignee, teamId);
      convs.push(c.id);
      await ok(rate(c.id, score, `remark ${score}`), 201);
    }
    // Reassigning after the rating does not move it: it stays with who handled the conversation then.
    await ok(t.client.post(`/api/conversations/${convs[3]}/parts`, { message_type: 'assignment', assignee_id: ann.memberId }, { key }), 201);

    const r = await report();
    const byAssignee = (id: string | null) => r.by_assignee.find((a: { assignee_id: string | null }) => a.assignee_id === id);
    expect(byAssignee(ann.memberId)).to.include({ count: annIn + 3 });
    const bobRow = byAssignee(bob.memberId);
    expect(bobRow).to.deep.equal({
      assignee_id: bob.memberId,
      count: 2,
      average: 4,
      satisfied: 1,
      csat: 0.5,
      scores: { '1': 0, '2': 0, '3': 1, '4': 0, '5': 1 },
    });
    expect(byAssignee(null)).to.include({
      count:
        1 +
        baseline.by_assignee.filter((a: { assignee_id: string | null }) => a.assignee_id === null).reduce((n: number, a: { count: number }) => n + a.count, 0),
    });
    const teamRow = r.by_team.find((x: { team_id: string | null }) => x.team_id === team);
    expect(teamRow).to.include({ count: 3, satisfied: 2, average: 4 });
    expect(teamRow.scores).to.deep.equal({ '1': 0, '2': 0, '3': 1, '4': 1, '5': 1 });
    expect(r.overall.count).to.equal(baseline.overall.count + 6);
    expect(r.by_assignee.reduce((n: number, a: { count: number }) => n + a.count, 0)).to.equal(r.overall.count);

    const onlyTeam = await report(`?team_id=${team}`);
    expect(onlyTeam.overall).to.include({ count: 3 });
    expect(onlyTeam.by_assignee.map((a: { assignee_id: string; count: number }) => [a.assignee_id, a.count])).to.deep.equal([
      [ann.memberId, 2],
      [bob.memberId, 1],
    ]);
    const onlyBob = await report(`?assignee_id=${bob.memberId}`);
    expect(onlyBob.overall.count).to.equal(2);
    const future = await report(`?since=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`);
    expect(future).to.deep.include({
      overall: { count: 0, average: null, satisfied: 0, csat: null, scores: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } },
      by_team: [],
      by_assignee: [],
    });
    expect((await t.client.get('/api/reports/csat?since=yesterday', { key })).status).to.equal(400);
    const yearZero = await t.client.get('/api/reports/csat?until=0000-01-01T00:00:00Z', { key });
    expect(yearZero.status, yearZero.text).to.equal(400);
    expect(yearZero.body.errors[0]).to.include({ code: 'invalid_field', field: 'until' });
  });

  it("the channel's bridge rates a thread, signed like its inbound posts; a bad signature is the empty 401, an unknown thread a 404", async () => {
    const body = inboundBody();
    const filed = await ok(postInbound(t, channel.id, channel.secret, body), 201);
    const at = t.clock.now().toISOString();
    const post = (payload: Record<string, unknown>, secret = channel.secret) =>
      postSigned(t, `/api/channels/${channel.id}/ratings`, secret, JSON.stringify({ rated_at: at, ...payload }));
    const rated = await ok(post({ external_id: body.external_id, score: 4, remark: 'Thanks!' }), 201);
    expect(rated.rated_at).to.equal(at);
    expect(rated).to.include({ type: 'conversation_rating', score: 4, remark: 'Thanks!', source: 'channel', conversation_id: filed.conversation_id });
    expect((await ok(t.client.get(`/api/conversations/${filed.conversation_id}`, { key }))).rating).to.include({ id: rated.id, source: 'channel' });
    const event = (await ratedEvents()).find((e) => e.payload.rating_id === rated.id);
    expect(event.payload.rated_by).to.deep.equal({ type: 'contact', id: filed.contact_id });

    const forged = await post({ external_id: body.external_id, score: 1 }, 'not-the-secret-0123456789');
    expect(forged.status).to.equal(401);
    expect(forged.text).to.equal('');
    const unknown = await post({ external_id: 'no-such-thread', score: 5 });
    expect(unknown.status).to.equal(404);
    const bad = await post({ external_id: body.external_id, score: 9 });
    expect(bad.status).to.equal(400);
    expect((await ok(t.client.get(`/api/conversations/${filed.conversation_id}`, { key }))).rating.id).to.equal(rated.id);
  });

  it('a remark is gone with the contact (the conversation, the report table, the log); the score stays; a rebuild agrees', async () => {
    const c = await start(bob.memberId);
    // With an Idempotency-Key: the answer stored for a retry holds the remark too (sealed under the rating's key).
    await ok(
      t.client.post(
        `/api/conversations/${c.id}/ratings`,
        { score: 1, remark: 'SECRET-REMARK-Grace-Hopper' },
        { key, headers: { 'Idempotency-Key': `rate-${c.id}` } },
      ),
      201,
    );
    await ok(t.client.delete(`/api/contacts/${c.contact_id}`, { key }));
    const conv = await ok(t.client.get(`/api/conversations/${c.id}`, { key }));
    expect(conv.rating).to.include({ score: 1, remark: null });
    // No rating afterwards: its remark would outlive the erasure (its key's owner is gone).
    const late = await rate(c.id, 5, 'LATE-REMARK');
    expect(late.status, late.text).to.equal(410);
    expect(late.body.errors[0].code).to.equal('contact_erased');
    const event = (await ratedEvents()).find((e) => e.aggregate_id === c.id);
    expect(event.payload).to.include({ score: 1, remark: null });
    const { db, store } = t.service.deps;
    const dump = async () =>
      JSON.stringify([
        (await store.readTenant(owner.workspaceId, 0, 100_000, { sealed: true })).map((e) => e.payload),
        await db('conversation_ratings').where({ tenant_id: owner.workspaceId }).orderBy('conversation_id'),
        await db('conversations').where({ tenant_id: owner.workspaceId }).orderBy('id'),
        await db('idempotency_keys').select('*'),
      ]);
    const before = await dump();
    expect(before).not.to.include('SECRET-REMARK');
    await rebuildReadModels(db, store, t.service.engine);
    expect(await dump()).to.equal(before);
  });
});
