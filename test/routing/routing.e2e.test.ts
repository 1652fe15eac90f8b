// Routing (issue 34, item 6): members' availability and capacity, teams' assignment rules, and the
// assignment routing appends in the same command as a conversation's creation or reopening. The
// concurrency cases send their requests at once, to one process (group commit: several commands in
// one transaction) and to two processes over the same database (the workspace's append lock).
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { mailDns } from '../../src/capabilities/email/index.js';
import { createDb } from '../../src/platform/db/database.js';
import { inboundBody, postInbound } from '../support/channels.js';
import type { Reply } from '../support/http.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { CUSTOMER_ZONE, receivedFrom127, zoneResolver } from '../email/mail-rig.js';

const SECRET = 'bridge-secret-0123456789';

describe('routing: availability, capacity and team assignment rules', () => {
  let t: TestService;
  let owner: Member;
  let key: string;
  let agents: Member[];

  before(async () => {
    mailDns.resolver = zoneResolver(CUSTOMER_ZONE);
    t = await startTestService('routing', { env: { EMAIL_DOMAIN_VERIFICATION: 'off' } });
    owner = await newWorkspace(t);
    key = (
      await mintKey(t, owner, ['members:read', 'members:invite', 'conversations:read', 'conversations:write', 'settings:read', 'settings:write', 'events:read'])
    ).secret;
    agents = [];
    for (let i = 0; i < 3; i++) agents.push(await addMember(t, owner, 'agent'));
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
  });

  const as = (m: Member) => ({ cookie: m.cookie, workspace: m.workspaceId });
  const setAvailability = async (m: Member, status: 'online' | 'away') => {
    const r = await t.client.put('/api/me/availability', { status }, as(m));
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ id: m.memberId, availability: status });
  };
  const setCapacity = async (m: Member, capacity: number | null) => {
    const r = await t.client.put(`/api/members/${m.memberId}`, { capacity }, { key });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.capacity).to.equal(capacity);
  };
  /** A team of these members with this rule, and an api channel whose conversations land in it. */
  const routedTeam = async (name: string, members: Member[], assignment: 'round_robin' | 'balanced') => {
    const team = await t.client.post('/api/teams', { name }, { key });
    expect(team.status, team.text).to.equal(201);
    expect(team.body.assignment).to.equal('none');
    const roster = await t.client.put(`/api/teams/${team.body.id}/members`, { member_ids: members.map((m) => m.memberId) }, { key });
    expect(roster.status, roster.text).to.equal(200);
    const rule = await t.client.put(`/api/teams/${team.body.id}`, { assignment }, { key });
    expect(rule.status, rule.text).to.equal(200);
    expect(rule.body).to.include({ id: team.body.id, name, assignment });
    const channel = await t.client.post(
      '/api/channels',
      { kind: 'api', name: `${name} bridge`, default_team_id: team.body.id, webhook_secret: SECRET },
      { key },
    );
    expect(channel.status, channel.text).to.equal(201);
    return { teamId: team.body.id as string, channelId: channel.body.id as string };
  };
  const start = (channelId: string, extra: Record<string, unknown> = {}, client = t.client) =>
    client.post(
      '/api/conversations',
      { channel_id: channelId, body: 'Hello', contact: { email: `c-${Math.random().toString(36).slice(2)}@example.com` }, ...extra },
      { key },
    );
  const conversation = async (id: string) => {
    const r = await t.client.get(`/api/conversations/${id}`, { key });
    expect(r.status, r.text).to.equal(200);
    return r.body;
  };
  const routingParts = (c: { parts: { part_type: string; author: { type: string; id: string } }[] }) =>
    c.parts.filter((p) => p.part_type === 'assignment' && p.author.type === 'system' && p.author.id === 'routing');
  const tally = (answers: Reply[]) => {
    const n = new Map<string | null, number>();
    for (const a of answers) n.set(a.body.assignee_id, (n.get(a.body.assignee_id) ?? 0) + 1);
    return n;
  };
  const setAll = async (status: 'online' | 'away') => {
    for (const a of agents) await setAvailability(a, status);
  };

  it('a member sets their own availability (away until then); owners and admins set capacity; both show on members and /api/me', async () => {
    const me = await t.client.get('/api/me', as(agents[0]!));
    expect(me.body).to.include({ availability: 'away', capacity: null });
    await setAvailability(agents[0]!, 'online');
    await setCapacity(agents[0]!, 5);
    const listed = (await t.client.get('/api/members', { key })).body.data.find((m: { id: string }) => m.id === agents[0]!.memberId);
    expect(listed).to.include({ availability: 'online', capacity: 5 });
    const online = (await t.client.get('/api/members?availability=online', { key })).body.data.map((m: { id: string }) => m.id);
    expect(online).to.deep.equal([agents[0]!.memberId]);
    expect((await t.client.get('/api/me', as(agents[0]!))).body).to.include({ availability: 'online', capacity: 5 });
    // The same again changes nothing (no event); an agent may not set capacities; null lifts the limit.
    const head = await t.service.deps.store.head(owner.workspaceId);
    await setAvailability(agents[0]!, 'online');
    await setCapacity(agents[0]!, 5);
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
    expect((await t.client.put(`/api/members/${agents[1]!.memberId}`, { capacity: 3 }, as(agents[0]!))).status).to.equal(403);
    expect((await t.client.put(`/api/members/${agents[1]!.memberId}`, { capacity: -1 }, { key })).status).to.equal(400);
    expect((await t.client.put(`/api/members/${agents[1]!.memberId}`, {}, { key })).status).to.equal(400);
    expect((await t.client.put('/api/me/availability', { status: 'busy' }, as(agents[0]!))).status).to.equal(400);
    await setCapacity(agents[0]!, null);
    const events = (await t.client.get('/api/events?types=member.availability_changed,member.capacity_changed', { key })).body.data;
    expect(events.map((e: { type: string; payload: object }) => [e.type, e.payload])).to.deep.equal([
      ['member.availability_changed', { member_id: agents[0]!.memberId, from: 'away', to: 'online' }],
      ['member.capacity_changed', { member_id: agents[0]!.memberId, from: null, to: 5, changed_by: owner.memberId }],
      ['member.capacity_changed', { member_id: agents[0]!.memberId, from: 5, to: null, changed_by: owner.memberId }],
    ]);
  });

  it('30 concurrent new conversations for a round-robin team of 3 available members: 10 each, in the command that creates them', async () => {
    await setAll('online');
    const { teamId, channelId } = await routedTeam('Round robin', agents, 'round_robin');
    const head = await t.service.deps.store.head(owner.workspaceId);
    // Half started by teammates, half posted by the bridge: two commands, at once, so group commit puts them together.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0 ? start(channelId) : postInbound(t, channelId, SECRET, inboundBody({ contact: { external_id: `rr-${i}`, name: 'Customer' } })),
      ),
    );
    for (const a of answers) expect(a.status, a.text).to.equal(201);
    // Group commit took several of them into one transaction (else this would test one command at a time). Postgres
    // only: with TEST_EVENT_STORE=eventstoredb there is no group commit, the workspace's commands queue one by one.
    if (t.service.deps.store.kind === 'postgres') {
      const txs = (await t.testDb
        .db('events')
        .where({ tenant_id: owner.workspaceId, type: 'conversation.created' })
        .andWhere('seq', '>', head)
        .select(t.testDb.db.raw('tx_id::text AS tx'))) as { tx: string }[];
      expect(txs).to.have.length(30);
      expect(new Set(txs.map((r) => r.tx)).size, 'transactions for the 30').to.be.lessThan(30);
    }
    const ids = answers.map((a) => a.body.id ?? a.body.conversation_id) as string[];
    const conversations = await Promise.all(ids.map(conversation));
    const counts = tally(conversations.map((c) => ({ body: c }) as Reply));
    expect(counts.get(null), 'none left unassigned').to.equal(undefined);
    expect(agents.map((a) => counts.get(a.memberId))).to.deep.equal([10, 10, 10]);
    for (const c of conversations) {
      const [routed, ...more] = routingParts(c);
      expect(more, 'one routing assignment each').to.have.length(0);
      expect(routed).to.include({ assignee_id: c.assignee_id });
      expect((routed as { assigned_by?: unknown }).assigned_by).to.deep.equal({ rule: 'round_robin', team_id: teamId });
    }
    // In creation order, each goes to the next member by id: the log's order is the rotation's.
    const byId = [...agents].map((a) => a.memberId).sort();
    const feed = (await t.client.get(`/api/events?types=conversation_part.created&after_seq=${head}&per_page=100`, { key })).body.data as {
      payload: { assignee_id?: string; assigned_by?: { team_id: string } };
    }[];
    const order = feed.filter((e) => e.payload.assigned_by?.team_id === teamId).map((e) => e.payload.assignee_id!);
    expect(order).to.have.length(30);
    order.forEach((m, i) => i > 0 && expect(byId.indexOf(m), `assignment ${i}`).to.equal((byId.indexOf(order[i - 1]!) + 1) % 3));
  });

  it('two processes over the same database never assign twice: 30 at once across both come out at 10 each', async () => {
    await setAll('online');
    const { channelId } = await routedTeam('Two processes', agents, 'round_robin');
    const db = createDb(t.testDb.url, { max: 10 });
    const other = await startTestService('routing-b', { testDb: { db, url: t.testDb.url, name: t.testDb.name, drop: () => db.destroy() } });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => start(channelId, {}, i % 2 ? other.client : t.client)));
      for (const a of answers) expect(a.status, a.text).to.equal(201);
      const counts = tally(answers);
      expect(agents.map((a) => counts.get(a.memberId))).to.deep.equal([10, 10, 10]);
    } finally {
      await other.close();
    }
  });

  it('an away member gets none', async () => {
    await setAll('online');
    await setAvailability(agents[1]!, 'away');
    const { channelId } = await routedTeam('One away', agents, 'round_robin');
    const answers = await Promise.all(Array.from({ length: 12 }, () => start(channelId)));
    const counts = tally(answers);
    expect(counts.get(agents[1]!.memberId) ?? 0).to.equal(0);
    expect([counts.get(agents[0]!.memberId), counts.get(agents[2]!.memberId)]).to.deep.equal([6, 6]);
  });

  it('capacity is respected: a member at capacity is skipped; when all are, the conversation stays unassigned; closing frees room', async () => {
    await setAll('online');
    const { teamId, channelId } = await routedTeam('Capacity', agents, 'round_robin');
    // Open conversations assigned now count against capacity, whatever team they came from.
    const load = (m: Member) =>
      t.client.get(`/api/conversations?state=open&assignee_id=${m.memberId}&per_page=100`, { key }).then((r) => r.body.data.length as number);
    const before = await Promise.all(agents.map(load));
    await setCapacity(agents[0]!, before[0]! + 1);
    await setCapacity(agents[1]!, before[1]!);
    await setCapacity(agents[2]!, before[2]! + 2);
    const answers = await Promise.all(Array.from({ length: 5 }, () => start(channelId)));
    const counts = tally(answers);
    expect(counts.get(agents[1]!.memberId) ?? 0, 'at capacity from the start').to.equal(0);
    expect(counts.get(agents[0]!.memberId)).to.equal(1);
    expect(counts.get(agents[2]!.memberId)).to.equal(2);
    expect(counts.get(null), 'nobody had room for the last two').to.equal(2);
    const waiting = answers.find((a) => a.body.assignee_id === null)!.body;
    expect(routingParts(waiting)).to.have.length(0);
    expect(waiting.team_id).to.equal(teamId);
    // Closing one of agent 0's frees a place: the next goes to them.
    const theirs = answers.find((a) => a.body.assignee_id === agents[0]!.memberId)!.body.id;
    expect((await t.client.post(`/api/conversations/${theirs}/parts`, { message_type: 'close' }, { key })).status).to.equal(201);
    expect((await start(channelId)).body.assignee_id).to.equal(agents[0]!.memberId);
    for (const a of agents) await setCapacity(a, null);
  });

  it('balanced picks the least loaded available member', async () => {
    await setAll('online');
    const { teamId, channelId } = await routedTeam('Balanced', agents, 'balanced');
    const load = (m: Member) =>
      t.client.get(`/api/conversations?state=open&assignee_id=${m.memberId}&per_page=100`, { key }).then((r) => r.body.data.length as number);
    // Give agent 0 the most, agent 1 one less, agent 2 two less, by hand (explicit assignees are never routed).
    const now = await Promise.all(agents.map(load));
    const top = Math.max(...now) + 2;
    for (const [i, a] of agents.entries())
      for (let n = now[i]!; n < top - i; n++) expect((await start(channelId, { assignee_id: a.memberId })).body.assignee_id).to.equal(a.memberId);
    const first = await start(channelId);
    expect(first.body.assignee_id, 'the least loaded').to.equal(agents[2]!.memberId);
    expect(routingParts(first.body)[0]).to.deep.include({ assigned_by: { rule: 'balanced', team_id: teamId } });
    const next = await Promise.all([start(channelId), start(channelId)]);
    expect(next.map((r) => r.body.assignee_id).sort(), 'agents 1 and 2, tied at one less than agent 0').to.deep.equal(
      [agents[1]!.memberId, agents[2]!.memberId].sort(),
    );
    expect(await Promise.all(agents.map(load))).to.deep.equal([top, top, top]);
  });

  it('a reopened unassigned conversation is routed (teammate reopen and a bridge message alike); an assigned one keeps its assignee', async () => {
    await setAll('away');
    const { teamId, channelId } = await routedTeam('Reopen', agents, 'round_robin');
    const waiting = await start(channelId);
    expect(waiting.body.assignee_id, 'nobody available').to.equal(null);
    const id = waiting.body.id;
    expect((await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'close' }, { key })).status).to.equal(201);
    await setAvailability(agents[1]!, 'online');
    const reopened = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'open' }, { key });
    expect(reopened.status, reopened.text).to.equal(201);
    expect(reopened.body.part_type).to.equal('open');
    expect(reopened.body.conversation.assignee_id).to.equal(agents[1]!.memberId);
    const parts = routingParts(await conversation(id));
    expect(parts).to.have.length(1);
    expect(parts[0]).to.deep.include({ assignee_id: agents[1]!.memberId, assigned_by: { rule: 'round_robin', team_id: teamId } });

    // Through the bridge: a thread nobody could take, closed, then a new message from the customer reopens it.
    await setAll('away');
    const thread = inboundBody({ external_id: 'reopen-thread', message_id: 'm-1' });
    const posted = await postInbound(t, channelId, SECRET, thread);
    expect(posted.status, posted.text).to.equal(201);
    const threadId = posted.body.conversation_id;
    expect((await conversation(threadId)).assignee_id).to.equal(null);
    expect((await t.client.post(`/api/conversations/${threadId}/parts`, { message_type: 'close' }, { key })).status).to.equal(201);
    await setAvailability(agents[2]!, 'online');
    const again = await postInbound(t, channelId, SECRET, { ...thread, message_id: 'm-2', content: 'Still waiting' });
    expect(again.status, again.text).to.equal(201);
    const after = await conversation(threadId);
    expect(after).to.include({ state: 'open', assignee_id: agents[2]!.memberId });

    // Assigned when it was closed: reopening keeps the assignee, nothing routed.
    expect((await t.client.post(`/api/conversations/${threadId}/parts`, { message_type: 'close' }, { key })).status).to.equal(201);
    await setAvailability(agents[0]!, 'online');
    const kept = await t.client.post(`/api/conversations/${threadId}/parts`, { message_type: 'open' }, { key });
    expect(kept.body.conversation.assignee_id).to.equal(agents[2]!.memberId);
    expect(routingParts(await conversation(threadId))).to.have.length(1);
  });

  it('e-mail: a message that opens a conversation is routed, and so is one that reopens it unassigned', async () => {
    await setAll('away');
    const { teamId } = await routedTeam('Mail', agents, 'balanced');
    const mail = await t.client.post(
      '/api/channels',
      { kind: 'email', name: 'Routed mail', address: 'routing@widgets.example', default_team_id: teamId, webhook_secret: SECRET },
      { key },
    );
    expect(mail.status, mail.text).to.equal(201);
    const post = (raw: string) =>
      t.client.post(`/api/channels/${mail.body.id}/inbound/mime`, undefined, {
        raw,
        headers: {
          'content-type': 'message/rfc822',
          'x-service-signature': createHmac('sha256', SECRET).update(Buffer.from(raw, 'utf8')).digest('hex'),
          'x-service-timestamp': String(Math.floor(t.clock.now().getTime() / 1000)),
        },
      });
    const message = (id: string, extra: string[] = []) =>
      [
        ...receivedFrom127('mo@customer.example'),
        `From: Mo <mo@customer.example>`,
        'To: routing@widgets.example',
        'Subject: Invoice',
        `Message-ID: <${id}@customer.example>`,
        ...extra,
        '',
        'Hello.',
        '',
      ].join('\r\n');
    // Nobody online: the first message opens it unassigned.
    const first = await post(message('routed-1'));
    expect(first.status, first.text).to.equal(201);
    const id = first.body.conversation_id;
    expect((await conversation(id)).assignee_id).to.equal(null);
    expect((await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'close' }, { key })).status).to.equal(201);
    await setAvailability(agents[0]!, 'online');
    // The customer's answer threads into it (In-Reply-To) and reopens it: routed after the message's own events.
    const second = await post(message('routed-2', ['In-Reply-To: <routed-1@customer.example>']));
    expect(second.status, second.text).to.equal(201);
    expect(second.body.conversation_id).to.equal(id);
    const reopened = await conversation(id);
    expect(reopened).to.include({ state: 'open', assignee_id: agents[0]!.memberId });
    expect(routingParts(reopened)[0]).to.deep.include({ assigned_by: { rule: 'balanced', team_id: teamId } });
    // A new thread with someone online: assigned in the command that files it.
    const third = await post(message('routed-3'));
    expect((await conversation(third.body.conversation_id)).assignee_id).to.equal(agents[0]!.memberId);
  });

  it('moving an open, unassigned conversation to a routed team routes it; an assigned, a closed or an unassigned-in-place one is not', async () => {
    await setAll('away');
    const { channelId } = await routedTeam('Triage', agents, 'round_robin');
    const { teamId: tier2 } = await routedTeam('Tier 2', [agents[2]!], 'round_robin');
    const assign = (id: string, body: Record<string, unknown>) =>
      t.client.post(`/api/conversations/${id}/parts`, { message_type: 'assignment', ...body }, { key });
    const waiting = (await start(channelId)).body.id as string;
    const closed = (await start(channelId)).body.id as string;
    expect((await t.client.post(`/api/conversations/${closed}/parts`, { message_type: 'close' }, { key })).status).to.equal(201);
    await setAvailability(agents[2]!, 'online');

    // Moved to Tier 2: its rule assigns it in the same command, and the answer shows it.
    const moved = await assign(waiting, { team_id: tier2 });
    expect(moved.status, moved.text).to.equal(201);
    expect(moved.body.conversation).to.include({ team_id: tier2, assignee_id: agents[2]!.memberId });
    expect(routingParts(await conversation(waiting)).map((p) => (p as { assigned_by?: unknown }).assigned_by)).to.deep.equal([
      { rule: 'round_robin', team_id: tier2 },
    ]);

    // Unassigned in place (same team, assignee null): nobody for now, nothing routed.
    const unassigned = await assign(waiting, { assignee_id: null });
    expect(unassigned.body.conversation).to.include({ team_id: tier2, assignee_id: null });
    // Moved with its assignee: kept.
    const withAssignee = await start(channelId, { assignee_id: agents[0]!.memberId });
    const keptAssignee = await assign(withAssignee.body.id, { team_id: tier2 });
    expect(keptAssignee.body.conversation).to.include({ team_id: tier2, assignee_id: agents[0]!.memberId });
    // Closed: moved but not routed until it reopens.
    const closedMove = await assign(closed, { team_id: tier2 });
    expect(closedMove.body.conversation).to.include({ state: 'closed', team_id: tier2, assignee_id: null });
    const reopened = await t.client.post(`/api/conversations/${closed}/parts`, { message_type: 'open' }, { key });
    expect(reopened.body.conversation).to.include({ team_id: tier2, assignee_id: agents[2]!.memberId });
    for (const id of [withAssignee.body.id]) expect(routingParts(await conversation(id))).to.have.length(0);
  });

  it("a team's rule `none` (the default) assigns nothing", async () => {
    await setAll('online');
    const { teamId, channelId } = await routedTeam('Back to none', agents, 'round_robin');
    const r = await t.client.put(`/api/teams/${teamId}`, { assignment: 'none' }, { key });
    expect(r.body.assignment).to.equal('none');
    expect((await start(channelId)).body.assignee_id).to.equal(null);
  });
});
