import { expect } from 'chai';
import { inboundBody, postInbound } from '../support/channels.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const SECRET = 'bridge-secret-0123456789';

describe('teams: conversations and channels name existing teams', () => {
  let t: TestService;
  let owner: Member;
  let key: string;

  before(async () => {
    t = await startTestService('teams-assignment');
    owner = await newWorkspace(t);
    key = (
      await mintKey(t, owner, ['members:read', 'members:invite', 'conversations:read', 'conversations:write', 'settings:read', 'settings:write', 'events:read'])
    ).secret;
  });
  after(async () => t?.close());

  const team = async (name: string, k = key) => {
    const r = await t.client.post('/api/teams', { name }, { key: k });
    expect(r.status, r.text).to.equal(201);
    return r.body.id as string;
  };
  const channel = (body: Record<string, unknown>, k = key) => t.client.post('/api/channels', { kind: 'api', webhook_secret: SECRET, ...body }, { key: k });
  const conversation = async (id: string) => (await t.client.get(`/api/conversations/${id}`, { key })).body;
  const assign = (id: string, body: Record<string, unknown>) =>
    t.client.post(`/api/conversations/${id}/parts`, { message_type: 'assignment', ...body }, { key });

  it("refuses a channel's default_team_id that names no team of the workspace (400 unknown_team)", async () => {
    const head = await t.service.deps.store.head(owner.workspaceId);
    const unknown = await channel({ name: 'Unknown team', default_team_id: '00000000-0000-4000-8000-000000000001' });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0]).to.include({ code: 'unknown_team', field: 'default_team_id' });
    expect((await channel({ name: 'Free string', default_team_id: 'tier-2' })).body.errors[0]).to.include({ code: 'unknown_team', field: 'default_team_id' });
    const other = await newWorkspace(t, 'Other');
    const theirs = await team('Theirs', (await mintKey(t, other, ['members:invite'])).secret);
    expect((await channel({ name: 'Foreign team', default_team_id: theirs })).body.errors[0]).to.include({ code: 'unknown_team', field: 'default_team_id' });
    expect(await t.service.deps.store.head(owner.workspaceId), 'nothing written').to.equal(head);
  });

  it("files an inbound conversation under the channel's default team; an assignment's team_id must name a team", async () => {
    const tier1 = await team('Tier 1');
    const tier2 = await team('Tier 2');
    const ch = await channel({ name: 'Bridge with team', default_team_id: tier1 });
    expect(ch.status, ch.text).to.equal(201);
    expect(ch.body.default_team_id).to.equal(tier1);
    const inbound = await postInbound(t, ch.body.id, SECRET, inboundBody());
    expect(inbound.status, inbound.text).to.equal(201);
    const id = inbound.body.conversation_id;
    expect((await conversation(id)).team_id).to.equal(tier1);

    const head = await t.service.deps.store.head(owner.workspaceId);
    const bad = await assign(id, { team_id: '00000000-0000-4000-8000-000000000002' });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.include({ code: 'unknown_team', field: 'team_id' });
    expect((await assign(id, { team_id: 'billing' })).body.errors[0]).to.include({ code: 'unknown_team', field: 'team_id' });
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);

    const ok = await assign(id, { team_id: tier2 });
    expect(ok.status, ok.text).to.equal(201);
    expect((await conversation(id)).team_id).to.equal(tier2);
    expect((await assign(id, { team_id: null })).status).to.equal(201);
    expect((await conversation(id)).team_id).to.equal(null);
  });

  it('deleting a team unassigns its conversations (open and closed) and channels through team.deleted', async () => {
    const doomed = await team('Doomed');
    const kept = await team('Kept');
    const ch = (await channel({ name: 'Doomed bridge', default_team_id: doomed })).body;
    const c1 = (await postInbound(t, ch.id, SECRET, inboundBody())).body.conversation_id;
    const c2 = (await postInbound(t, ch.id, SECRET, inboundBody())).body.conversation_id;
    const c3 = (await postInbound(t, ch.id, SECRET, inboundBody())).body.conversation_id;
    const started = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'Hello', contact: { email: 'started@example.com' } }, { key });
    expect(started.status, started.text).to.equal(201);
    expect(started.body.team_id, "a teammate-started conversation opens under the channel's default team").to.equal(doomed);
    expect((await t.client.post(`/api/conversations/${c2}/parts`, { message_type: 'close' }, { key })).status).to.equal(201);
    expect((await assign(c3, { team_id: kept })).status).to.equal(201);

    const del = await t.client.delete(`/api/teams/${doomed}`, { key });
    expect(del.status, del.text).to.equal(200);
    const ev = (await t.client.get('/api/events?types=team.deleted&per_page=100', { key })).body.data.find(
      (e: { aggregate_id: string }) => e.aggregate_id === doomed,
    );
    expect(ev.payload).to.deep.equal({ id: doomed, name: 'Doomed', conversation_ids: [c1, c2, started.body.id].sort(), channel_ids: [ch.id] });

    expect((await conversation(c1)).team_id).to.equal(null);
    expect(await conversation(c2)).to.include({ team_id: null, state: 'closed' });
    expect((await conversation(c3)).team_id, 'another team is untouched').to.equal(kept);
    expect((await t.client.get(`/api/channels/${ch.id}`, { key })).body.default_team_id).to.equal(null);
    // A new thread on the channel is filed under no team.
    const later = (await postInbound(t, ch.id, SECRET, inboundBody())).body.conversation_id;
    expect((await conversation(later)).team_id).to.equal(null);
    const startedLater = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, body: 'Hello again', contact: { email: 'started@example.com' } },
      { key },
    );
    expect(startedLater.body.team_id, 'so is a teammate-started one').to.equal(null);
    // And the deleted team can no longer be assigned.
    expect((await assign(c1, { team_id: doomed })).body.errors[0]).to.include({ code: 'unknown_team', field: 'team_id' });
  });
});
