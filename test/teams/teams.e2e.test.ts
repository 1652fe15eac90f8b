import { expect } from 'chai';
import { eventually } from '../support/events.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { Receiver } from '../webhooks/receiver.js';

interface Ev {
  seq: number;
  type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
}

describe('teams', () => {
  let t: TestService;
  let owner: Member;
  let a: Member;
  let b: Member;
  let c: Member;
  let key: string;

  before(async () => {
    t = await startTestService('teams', { env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    [a, b, c] = [await addMember(t, owner, 'agent'), await addMember(t, owner, 'agent'), await addMember(t, owner, 'admin')];
    key = (await mintKey(t, owner, ['members:read', 'members:invite', 'events:read'])).secret;
  });
  after(async () => t?.close());

  const create = (name: string, k = key) => t.client.post('/api/teams', { name }, { key: k });
  const events = async (types: string): Promise<Ev[]> => (await t.client.get(`/api/events?types=${types}&per_page=100`, { key })).body.data;

  it('creates, reads, lists, renames and deletes a team; team events are in the feed', async () => {
    const r = await create('Billing');
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ type: 'team', name: 'Billing' });
    expect(r.body.member_ids).to.deep.equal([]);
    expect((await t.client.get(`/api/teams/${r.body.id}`, { key })).body).to.deep.equal(r.body);

    const list = await t.client.get('/api/teams', { key });
    expect(list.status).to.equal(200);
    expect(list.body.type).to.equal('list');
    expect(list.body).to.not.have.property('pages');
    expect(list.body.data.map((x: { id: string }) => x.id)).to.include(r.body.id);

    const renamed = await t.client.put(`/api/teams/${r.body.id}`, { name: 'Billing & Refunds' }, { key });
    expect(renamed.status, renamed.text).to.equal(200);
    expect(renamed.body).to.include({ id: r.body.id, name: 'Billing & Refunds' });
    const same = await t.client.put(`/api/teams/${r.body.id}`, { name: 'Billing & Refunds' }, { key });
    expect(same.status).to.equal(200);

    const del = await t.client.delete(`/api/teams/${r.body.id}`, { key });
    expect(del.status, del.text).to.equal(200);
    expect(del.body).to.deep.equal({ type: 'team', id: r.body.id, deleted: true });
    expect((await t.client.get(`/api/teams/${r.body.id}`, { key })).status).to.equal(404);
    expect((await t.client.delete(`/api/teams/${r.body.id}`, { key })).status).to.equal(404);
    expect((await t.client.put(`/api/teams/${r.body.id}`, { name: 'Gone' }, { key })).status).to.equal(404);

    const mine = (await events('team.created,team.renamed,team.deleted')).filter((e) => e.aggregate_id === r.body.id);
    expect(
      mine.map((e) => e.type),
      'a rename to the same name appends nothing',
    ).to.deep.equal(['team.created', 'team.renamed', 'team.deleted']);
    expect(mine[0]!.payload).to.deep.equal({ id: r.body.id, name: 'Billing' });
    expect(mine[2]!.payload).to.deep.equal({ id: r.body.id, name: 'Billing & Refunds', conversation_ids: [], channel_ids: [] });
    // The name is free again.
    expect((await create('billing & refunds')).status).to.equal(201);
  });

  it('refuses a duplicate name ignoring case with 409 team_exists naming the existing team', async () => {
    const first = await create('Sales');
    const again = await create('  SALES ');
    expect(again.status).to.equal(409);
    expect(again.body.errors[0].code).to.equal('team_exists');
    expect(again.body.errors[0].message).to.include(first.body.id);
    const other = await create('Presales');
    const clash = await t.client.put(`/api/teams/${other.body.id}`, { name: 'sales' }, { key });
    expect(clash.status).to.equal(409);
    expect(clash.body.errors[0].message).to.include(first.body.id);
    // A team may change the case of its own name.
    expect((await t.client.put(`/api/teams/${first.body.id}`, { name: 'SALES' }, { key })).body.name).to.equal('SALES');
  });

  it('replaces a roster; the same set again appends no event; receivers get the whole roster', async () => {
    const team = (await create('Support')).body;
    const put = await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [a.memberId, b.memberId] }, { key });
    expect(put.status, put.text).to.equal(200);
    expect(put.body.member_ids).to.deep.equal([a.memberId, b.memberId]);
    const count = (await events('team.roster_changed')).length;
    const again = await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [b.memberId, a.memberId] }, { key });
    expect(again.status).to.equal(200);
    expect((await events('team.roster_changed')).length, 'the same set changes nothing').to.equal(count);

    await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [b.memberId, c.memberId] }, { key });
    const last = (await events('team.roster_changed')).at(-1)!;
    expect(last.payload).to.deep.equal({ id: team.id, member_ids: [b.memberId, c.memberId], added: [c.memberId], removed: [a.memberId] });
    expect((await t.client.get(`/api/teams/${team.id}`, { key })).body.member_ids).to.deep.equal([b.memberId, c.memberId]);
    expect((await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [] }, { key })).body.member_ids).to.deep.equal([]);
  });

  it('shows only active members: a member removed from the workspace drops out of the rosters shown', async () => {
    const team = (await create('Leavers')).body;
    const leaver = await addMember(t, owner, 'agent');
    await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [a.memberId, leaver.memberId] }, { key });
    expect((await t.client.delete(`/api/members/${leaver.memberId}`, { cookie: owner.cookie, workspace: owner.workspaceId })).status).to.equal(200);
    expect((await t.client.get(`/api/teams/${team.id}`, { key })).body.member_ids).to.deep.equal([a.memberId]);
    const listed = (await t.client.get('/api/teams', { key })).body.data.find((x: { id: string }) => x.id === team.id);
    expect(listed.member_ids).to.deep.equal([a.memberId]);
  });

  it('names the offending path of a roster: unknown, removed and duplicate members; writes nothing', async () => {
    const team = (await create('Validation')).body;
    const gone = await addMember(t, owner, 'agent');
    expect((await t.client.delete(`/api/members/${gone.memberId}`, { cookie: owner.cookie, workspace: owner.workspaceId })).status).to.equal(200);
    const before = (await events('team.roster_changed')).length;
    const bad = await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [a.memberId, 'nope', gone.memberId, a.memberId] }, { key });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { code: string; field: string }) => [e.code, e.field])).to.deep.equal([
      ['unknown_member', 'member_ids.1'],
      ['unknown_member', 'member_ids.2'],
      ['duplicate_member', 'member_ids.3'],
    ]);
    expect((await t.client.put(`/api/teams/${team.id}/members`, { member_ids: 'x' }, { key })).body.errors[0].field).to.equal('member_ids');
    expect((await t.client.post('/api/teams', { name: '' }, { key })).body.errors[0].field).to.equal('name');
    expect((await t.client.post('/api/teams', {}, { key })).body.errors[0]).to.include({ code: 'missing_field', field: 'name' });
    expect((await events('team.roster_changed')).length).to.equal(before);
    expect((await t.client.put('/api/teams/00000000-0000-4000-8000-000000000000/members', { member_ids: [] }, { key })).status).to.equal(404);
  });

  it('moves members between teams as one command: one contiguous run of seqs', async () => {
    const x = (await create('Move X')).body;
    const y = (await create('Move Y')).body;
    const z = (await create('Move Z')).body;
    await t.client.put(`/api/teams/${x.id}/members`, { member_ids: [a.memberId, b.memberId] }, { key });
    await t.client.put(`/api/teams/${z.id}/members`, { member_ids: [c.memberId] }, { key });
    const move = await t.client.post(
      '/api/teams/rosters',
      {
        teams: [
          { team_id: x.id, member_ids: [a.memberId] },
          { team_id: y.id, member_ids: [b.memberId] },
          { team_id: z.id, member_ids: [c.memberId] },
        ],
      },
      { key },
    );
    expect(move.status, move.text).to.equal(200);
    expect(move.body.type).to.equal('list');
    expect(move.body.data.map((d: { id: string; member_ids: string[] }) => [d.id, d.member_ids])).to.deep.equal([
      [x.id, [a.memberId]],
      [y.id, [b.memberId]],
      [z.id, [c.memberId]],
    ]);
    const moved = (await events('team.roster_changed')).slice(-2);
    expect(
      moved.map((e) => e.aggregate_id),
      'z is unchanged: no event',
    ).to.deep.equal([x.id, y.id]);
    expect(moved[1]!.seq - moved[0]!.seq).to.equal(1);
    // Nothing else was appended between them (the whole log, not only roster events).
    const all: Ev[] = (await t.client.get(`/api/events?after_seq=${moved[0]!.seq - 1}&per_page=5`, { key })).body.data;
    expect(all.slice(0, 2).map((e) => e.seq)).to.deep.equal([moved[0]!.seq, moved[1]!.seq]);
  });

  it('refuses a whole move when any id is invalid, naming teams.N.team_id and teams.N.member_ids.M', async () => {
    const x = (await create('AllOrNothing X')).body;
    const y = (await create('AllOrNothing Y')).body;
    const lastSeq = async () => {
      const all: Ev[] = [];
      let after = 0;
      for (;;) {
        const page: Ev[] = (await t.client.get(`/api/events?after_seq=${after}&per_page=100`, { key })).body.data;
        if (!page.length) return all.at(-1)?.seq ?? 0;
        all.push(...page);
        after = page.at(-1)!.seq;
      }
    };
    const seqBefore = await lastSeq();
    const bad = await t.client.post(
      '/api/teams/rosters',
      {
        teams: [
          { team_id: x.id, member_ids: [a.memberId] },
          { team_id: y.id, member_ids: [b.memberId, '11111111-1111-4111-8111-111111111111'] },
          { team_id: '22222222-2222-4222-8222-222222222222', member_ids: [] },
          { team_id: x.id, member_ids: [] },
        ],
      },
      { key },
    );
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { code: string; field: string }) => [e.code, e.field])).to.deep.equal([
      ['unknown_member', 'teams.1.member_ids.1'],
      ['unknown_team', 'teams.2.team_id'],
      ['duplicate_team', 'teams.3.team_id'],
    ]);
    expect(await lastSeq(), 'nothing written').to.equal(seqBefore);
    expect((await t.client.get(`/api/teams/${x.id}`, { key })).body.member_ids).to.deep.equal([]);
    const empty = await t.client.post('/api/teams/rosters', { teams: [] }, { key });
    expect(empty.status).to.equal(400);
    expect(empty.body.errors[0].field).to.equal('teams');
    const missing = await t.client.post('/api/teams/rosters', { teams: [{ team_id: x.id }] }, { key });
    expect(missing.body.errors[0]).to.include({ code: 'missing_field', field: 'teams.0.member_ids' });
  });

  it('pushes team events to a webhook endpoint filtered on them', async () => {
    const receiver = await new Receiver().start();
    try {
      const hooks = (await mintKey(t, owner, ['settings:write'])).secret;
      const ep = await t.client.post(
        '/api/webhooks',
        { url: receiver.url, event_names: ['team.created', 'team.roster_changed', 'team.deleted'] },
        { key: hooks },
      );
      expect(ep.status, ep.text).to.equal(201);
      const team = (await create('Hooked')).body;
      await t.client.put(`/api/teams/${team.id}`, { name: 'Hooked again' }, { key });
      await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [a.memberId] }, { key });
      await t.client.delete(`/api/teams/${team.id}`, { key });
      const mine = () => receiver.inSeqOrder((b) => b.aggregate_id === team.id);
      await eventually(
        () => mine().length,
        (n) => n >= 3,
      );
      expect(
        mine().map((b) => b.type),
        'team.renamed is not subscribed',
      ).to.deep.equal(['team.created', 'team.roster_changed', 'team.deleted']);
      expect(mine()[1]!.payload).to.deep.equal({ id: team.id, member_ids: [a.memberId], added: [a.memberId], removed: [] });
      expect(mine()[0]).to.include({ aggregate_type: 'team', tenant_id: owner.workspaceId });
    } finally {
      await receiver.close();
    }
  });

  it('keeps workspaces apart (404) and needs members scopes', async () => {
    const team = (await create('Private')).body;
    const other = await newWorkspace(t, 'Other');
    const otherKey = (await mintKey(t, other, ['members:read', 'members:invite'])).secret;
    expect((await t.client.get(`/api/teams/${team.id}`, { key: otherKey })).status).to.equal(404);
    expect((await t.client.put(`/api/teams/${team.id}`, { name: 'Mine now' }, { key: otherKey })).status).to.equal(404);
    expect((await t.client.delete(`/api/teams/${team.id}`, { key: otherKey })).status).to.equal(404);
    expect((await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [] }, { key: otherKey })).status).to.equal(404);
    const move = await t.client.post('/api/teams/rosters', { teams: [{ team_id: team.id, member_ids: [] }] }, { key: otherKey });
    expect(move.status).to.equal(400);
    expect(move.body.errors[0]).to.include({ code: 'unknown_team', field: 'teams.0.team_id' });
    expect((await t.client.get('/api/teams', { key: otherKey })).body.data).to.deep.equal([]);
    // Another workspace may use the same name; a member of this one is unknown there.
    const theirs = await create('Private', otherKey);
    expect(theirs.status).to.equal(201);
    const foreign = await t.client.put(`/api/teams/${theirs.body.id}/members`, { member_ids: [a.memberId] }, { key: otherKey });
    expect(foreign.body.errors[0]).to.include({ code: 'unknown_member', field: 'member_ids.0' });

    const reader = (await mintKey(t, owner, ['members:read'])).secret;
    expect((await t.client.get('/api/teams', { key: reader })).status).to.equal(200);
    expect((await t.client.get(`/api/teams/${team.id}`, { key: reader })).status).to.equal(200);
    expect((await create('Nope', reader)).status).to.equal(403);
    expect((await t.client.put(`/api/teams/${team.id}`, { name: 'Nope' }, { key: reader })).status).to.equal(403);
    expect((await t.client.delete(`/api/teams/${team.id}`, { key: reader })).status).to.equal(403);
    expect((await t.client.put(`/api/teams/${team.id}/members`, { member_ids: [] }, { key: reader })).status).to.equal(403);
    expect((await t.client.post('/api/teams/rosters', { teams: [{ team_id: team.id, member_ids: [] }] }, { key: reader })).status).to.equal(403);
    const none = (await mintKey(t, owner, ['events:read'])).secret;
    expect((await t.client.get('/api/teams', { key: none })).status).to.equal(403);
    expect((await t.client.get(`/api/teams/${team.id}`, { key: none })).status).to.equal(403);
  });
});
