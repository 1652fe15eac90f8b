// The audit log (issue 29, item 1): every event with its actor, the caller's address and user agent and the
// request id; the entries beside the log (sign-ins and failed ones, sign-outs, downloads, a key's new address);
// owners and admins only; filters and pages; addresses and user agents sealed, so a member's erasure nulls
// them and leaves no plaintext copy; entries beside the log kept AUDIT_RETENTION_DAYS, events for ever.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { ManualClock } from '../../src/platform/clock.js';
import type { RetentionWorker } from '../../src/capabilities/audit-log/audit-log.retention.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { eventually } from '../support/events.js';
import { createTestDb } from '../support/db.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { EsdbModelServer } from '../eventstore/esdb-model-server.js';

interface Entry {
  type: 'audit_entry';
  id: string;
  action: string;
  seq: number | null;
  aggregate_type: string;
  aggregate_id: string;
  actor: { type: string; id: string; member_id: string | null };
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: string;
}

/** Every row of every table, as text (bytea as hex): what a database dump holds. */
async function dumpDatabase(db: Knex): Promise<string> {
  const tables = (await db.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows as { tablename: string }[];
  expect(tables.map((x) => x.tablename)).to.include.members(['events', 'audit_entries', 'audit_key_addresses']);
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const r = await db.raw(`SELECT coalesce(string_agg(t::text, E'\\n'), '') AS rows FROM "${tablename}" t`);
    parts.push(`-- ${tablename}\n${r.rows[0].rows as string}`);
  }
  return parts.join('\n');
}

const ALL_KEY_SCOPES = ['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write', 'contacts:export', 'members:read', 'audit:read'];

describe('the audit log', function () {
  this.timeout(240_000);
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: { id: string; secret: string };
  let ch: { id: string; secret: string };

  /** The whole audit log of the owner's workspace (every page), newest first. */
  const all = async (query = '', as: { key?: string; cookie?: string; workspace?: string } = { key: key.secret }): Promise<Entry[]> => {
    const out: Entry[] = [];
    let after: string | null = null;
    for (let page = 0; page < 100; page++) {
      const sep = query ? '&' : '';
      const r = await t.client.get(`/api/audit_log?per_page=150${sep}${query}${after ? `&starting_after=${after}` : ''}`, as);
      expect(r.status, r.text).to.equal(200);
      out.push(...(r.body.data as Entry[]));
      after = r.body.pages.next?.starting_after ?? null;
      if (!after) return out;
    }
    throw new Error('more than 100 pages');
  };

  before(async () => {
    clock = new ManualClock(new Date('2026-03-01T09:00:00Z'));
    // X-Forwarded-For from loopback is believed: each test names the caller's address.
    t = await startTestService('audit_log', { clock, env: { TRUST_PROXY: 'loopback' } });
    owner = await newWorkspace(t, 'Audited');
    key = await mintKey(t, owner, ALL_KEY_SCOPES, 'auditor');
    ch = await createChannel(t, owner);
  });
  after(async () => t.close());

  it("lists a reply made with a key with that key, its member, the caller's address and user agent and the request id", async () => {
    const inbound = await postInbound(t, ch.id, ch.secret, inboundBody());
    expect(inbound.status, inbound.text).to.equal(201);
    const conversationId = inbound.body.conversation_id as string;
    const reply = await t.client.post(
      `/api/conversations/${conversationId}/reply`,
      { body: 'On its way.', message_type: 'comment' },
      { key: key.secret, headers: { 'x-forwarded-for': '203.0.113.7', 'x-request-id': 'reply-request-1', 'user-agent': 'HelpdeskBot/2.1' } },
    );
    expect(reply.status, reply.text).to.equal(201);

    const r = await t.client.get(`/api/audit_log?action=conversation_part.created&aggregate_id=${conversationId}`, { key: key.secret });
    expect(r.status, r.text).to.equal(200);
    const entry = (r.body.data as Entry[]).find((e) => e.actor.type === 'api_key')!;
    const feed = await t.client.get('/api/events?types=conversation_part.created', { key: (await mintKey(t, owner, ['events:read'])).secret });
    const event = (feed.body.data as { id: string; seq: number; payload: { part_id: string } }[]).find((e) => e.payload.part_id === reply.body.id)!;
    expect(entry).to.deep.equal({
      type: 'audit_entry',
      id: event.id,
      action: 'conversation_part.created',
      seq: event.seq,
      aggregate_type: 'conversation',
      aggregate_id: conversationId,
      actor: { type: 'api_key', id: key.id, member_id: owner.memberId },
      ip: '203.0.113.7',
      user_agent: 'HelpdeskBot/2.1',
      request_id: 'reply-request-1',
      created_at: clock.now().toISOString(),
    });
    // The bridge's post is the channel's, its address sealed with the contact's key.
    const posted = (r.body.data as Entry[]).find((e) => e.actor.type === 'channel')!;
    expect(posted).to.include({ ip: '127.0.0.1' });
    expect(posted.actor).to.deep.equal({ type: 'channel', id: ch.id, member_id: null });
    // In the log, the address is ciphertext.
    // (Read through the service's store as stored, whichever it is: the Postgres `events` table, or the EventStoreDB stream.)
    const stored = (await t.service.deps.store.readTenant(owner.workspaceId, 0, 10_000, { sealed: true })).find((e) => e.id === event.id)!;
    expect(JSON.stringify(stored.metadata)).to.not.include('203.0.113.7').and.to.not.include('HelpdeskBot');
    expect((stored.metadata as { client?: { ip?: unknown } }).client?.ip).to.have.property('$sealed_value');
  });

  it('lists a failed sign-in and a successful one of a member, and nothing for an e-mail that is no one', async () => {
    const from = { 'x-forwarded-for': '198.51.100.20', 'user-agent': 'Firefox/140.0' };
    const failed = await t.client.post(
      '/api/session',
      { email: owner.email, password: 'not the password' },
      { headers: { ...from, 'x-request-id': 'signin-bad' } },
    );
    expect(failed.status).to.equal(401);
    const nobody = await t.client.post('/api/session', { email: 'nobody@nowhere.example', password: 'whatever' }, { headers: from });
    expect(nobody.status).to.equal(401);
    const signedIn = await t.client.post(
      '/api/session',
      { email: owner.email, password: owner.password },
      { headers: { ...from, 'x-request-id': 'signin-ok' } },
    );
    expect(signedIn.status, signedIn.text).to.equal(201);

    const entries = await eventually(
      () => all('action=session.failed'),
      (es) => es.some((e) => e.request_id === 'signin-bad'),
    );
    expect(entries.find((e) => e.request_id === 'signin-bad')).to.deep.include({
      action: 'session.failed',
      seq: null,
      aggregate_type: 'member',
      aggregate_id: owner.memberId,
      actor: { type: 'system', id: 'sign_in', member_id: null },
      ip: '198.51.100.20',
      user_agent: 'Firefox/140.0',
    });
    expect(entries, 'one failed sign-in of the member; the unknown e-mail is nobody in this workspace').to.have.length(1);
    const created = (await all('action=session.created')).find((e) => e.request_id === 'signin-ok');
    expect(created).to.deep.include({
      aggregate_id: owner.memberId,
      actor: { type: 'member', id: owner.memberId, member_id: owner.memberId },
      ip: '198.51.100.20',
      user_agent: 'Firefox/140.0',
    });

    // Signing out is listed too.
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const out = await t.client.delete('/api/session', { cookie, headers: { ...from, 'x-request-id': 'signout' } });
    expect(out.status).to.equal(204);
    expect((await all('action=session.deleted')).find((e) => e.request_id === 'signout')).to.deep.include({
      aggregate_id: owner.memberId,
      actor: { type: 'member', id: owner.memberId, member_id: owner.memberId },
      ip: '198.51.100.20',
    });
  });

  it("is for owners and admins only: an agent's key, a viewer's session and a key without audit:read get 403", async () => {
    const admin = await addMember(t, owner, 'admin');
    const agent = await addMember(t, owner, 'agent');
    const viewer = await addMember(t, owner, 'viewer');
    const adminKey = await mintKey(t, admin, ['audit:read']);
    expect((await t.client.get('/api/audit_log', { key: adminKey.secret })).status).to.equal(200);
    expect((await t.client.get('/api/audit_log', { cookie: owner.cookie, workspace: owner.workspaceId })).status).to.equal(200);
    const agentKey = await mintKey(t, agent, ['conversations:read', 'contacts:read']);
    for (const as of [
      { key: agentKey.secret },
      { cookie: agent.cookie, workspace: agent.workspaceId },
      { cookie: viewer.cookie, workspace: viewer.workspaceId },
    ]) {
      const r = await t.client.get('/api/audit_log', as);
      expect(r.status, r.text).to.equal(403);
      expect(r.body.errors[0].code).to.equal('missing_scope');
    }
    // An agent cannot even mint a key that holds it.
    const mint = await t.client.post('/api/keys', { name: 'sneaky', scopes: ['audit:read'] }, { cookie: agent.cookie, workspace: agent.workspaceId });
    expect(mint.status).to.equal(403);
    const narrow = await mintKey(t, owner, ['conversations:read']);
    expect((await t.client.get('/api/audit_log', { key: narrow.secret })).status).to.equal(403);
  });

  it('filters by action, actor, aggregate and time, pages both sources without a gap or a repeat, and refuses bad values with a coded 400', async () => {
    const everything = await all();
    expect(new Set(everything.map((e) => e.id)).size, 'no entry twice').to.equal(everything.length);
    const events = everything.filter((e) => e.seq !== null);
    const head = await t.service.deps.store.head(owner.workspaceId);
    expect(events.map((e) => e.seq)).to.deep.equal(Array.from({ length: head }, (_, i) => head - i));
    expect(everything.some((e) => e.seq === null)).to.equal(true);
    // Newest first; order=asc the same rows the other way round, also across pages of 2.
    const times = everything.map((e) => e.created_at);
    expect([...times].sort().reverse()).to.deep.equal(times);
    const ascending: Entry[] = [];
    let after: string | null = null;
    do {
      const r = await t.client.get(`/api/audit_log?order=asc&per_page=2${after ? `&starting_after=${after}` : ''}`, { key: key.secret });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.data.length).to.be.at.most(2);
      ascending.push(...(r.body.data as Entry[]));
      after = r.body.pages.next?.starting_after ?? null;
    } while (after);
    expect(ascending.map((e) => e.id).sort()).to.deep.equal(everything.map((e) => e.id).sort());
    expect(ascending.filter((e) => e.seq !== null).map((e) => e.seq)).to.deep.equal([...events.map((e) => e.seq)].reverse());

    // action: an event type, or an action beside the log
    const joined = await all('action=member.joined');
    expect(joined.length).to.be.greaterThan(0);
    expect(joined.every((e) => e.action === 'member.joined')).to.equal(true);
    expect((await all('action=session.created')).every((e) => e.action === 'session.created' && e.seq === null)).to.equal(true);
    // actor_id: the key's own actions; a member's id also finds what their keys did
    const byKey = await all(`actor_id=${key.id}`);
    expect(byKey.length).to.be.greaterThan(0);
    expect(byKey.every((e) => e.actor.id === key.id)).to.equal(true);
    const byMember = await all(`actor_id=${owner.memberId}`);
    expect(byMember.map((e) => e.id)).to.include.members(byKey.map((e) => e.id));
    expect(byMember.every((e) => e.actor.id === owner.memberId || e.actor.member_id === owner.memberId)).to.equal(true);
    // aggregate_id
    const ofOwner = await all(`aggregate_id=${owner.memberId}`);
    expect(ofOwner.map((e) => e.action)).to.include.members(['member.joined', 'session.created', 'session.failed']);
    expect(ofOwner.every((e) => e.aggregate_id === owner.memberId)).to.equal(true);
    // since / until: [since, until)
    const later = new Date(clock.now().getTime() + 60_000);
    clock.advance(120_000);
    const signedIn = await t.client.post('/api/session', { email: owner.email, password: owner.password }, { headers: { 'x-request-id': 'signin-later' } });
    expect(signedIn.status).to.equal(201);
    const since = await all(`since=${later.toISOString()}`);
    expect(since.map((e) => e.request_id)).to.deep.equal(['signin-later']);
    const until = await all(`until=${later.toISOString()}`);
    expect(until.length).to.equal(everything.length);

    for (const [query, code, field] of [
      ['action=nothing.happened', 'unknown_audit_action', 'action'],
      ['action=DROP%20TABLE', 'invalid_field', 'action'],
      ['since=yesterday', 'invalid_field', 'since'],
      ['since=0000-01-01T00:00:00Z', 'invalid_field', 'since'],
      ['until=9999-12-31T23:59:59-01:00', 'invalid_field', 'until'],
      [`since=${later.toISOString()}&until=${later.toISOString()}`, 'invalid_time_range', 'since'],
      ['per_page=151', 'invalid_field', 'per_page'],
      ['per_page=0', 'invalid_field', 'per_page'],
      ['order=sideways', 'invalid_field', 'order'],
      ['actor_id=%27%3B', 'invalid_field', 'actor_id'],
      ['starting_after=garbage', 'invalid_cursor', 'starting_after'],
      [
        `starting_after=${Buffer.from(JSON.stringify({ v: 1, sort: 'created_at', order: 'desc', key: 'x', id: 'y' })).toString('base64url')}`,
        'invalid_cursor',
        'starting_after',
      ],
    ] as const) {
      const r = await t.client.get(`/api/audit_log?${query}`, { key: key.secret });
      expect(r.status, `${query}: ${r.text}`).to.equal(400);
      expect(r.body.errors[0], query).to.include({ code, field });
    }
    // A cursor minted for one order is refused under the other.
    const first = await t.client.get('/api/audit_log?per_page=1', { key: key.secret });
    const other = await t.client.get(`/api/audit_log?per_page=1&order=asc&starting_after=${first.body.pages.next.starting_after}`, { key: key.secret });
    expect(other.status).to.equal(400);
    expect(other.body.errors[0].code).to.equal('invalid_cursor');
  });

  it('records a download of an export and the first use of a key from each new address', async () => {
    const contact = await t.client.post('/api/contacts', { email: 'exported@example.com', name: 'Ex Ported' }, { key: key.secret });
    expect(contact.status, contact.text).to.equal(201);
    const requested = await t.client.post(`/api/contacts/${contact.body.id}/exports`, undefined, { key: key.secret });
    expect(requested.status, requested.text).to.equal(202);
    await eventually(
      () => t.client.get(`/api/exports/${requested.body.id}`, { key: key.secret }),
      (r) => r.body.status === 'completed',
    );
    const download = await t.client.get(`/api/exports/${requested.body.id}/download`, {
      key: key.secret,
      headers: { 'x-forwarded-for': '192.0.2.50', 'x-request-id': 'download-1' },
    });
    expect(download.status).to.equal(200);
    expect((await all('action=export.downloaded')).map((e) => ({ ...e, id: '', created_at: '' }))).to.deep.equal([
      {
        type: 'audit_entry',
        id: '',
        action: 'export.downloaded',
        seq: null,
        aggregate_type: 'export',
        aggregate_id: requested.body.id,
        actor: { type: 'api_key', id: key.id, member_id: owner.memberId },
        ip: '192.0.2.50',
        user_agent: 'node',
        request_id: 'download-1',
        created_at: '',
      },
    ]);

    const fresh = await mintKey(t, owner, ['conversations:read']);
    for (const ip of ['192.0.2.1', '192.0.2.1', '192.0.2.2', '192.0.2.1']) {
      expect((await t.client.get('/api/conversations', { key: fresh.secret, headers: { 'x-forwarded-for': ip } })).status).to.equal(200);
    }
    const seen = (await all(`action=api_key.new_address&aggregate_id=${fresh.id}`)).map((e) => e.ip).sort();
    expect(seen).to.deep.equal(['192.0.2.1', '192.0.2.2']);
  });

  it("nulls a member's addresses and user agents once the member is erased, and leaves no plaintext copy in the database", async () => {
    const marker = { ip: '198.51.100.77', agent: `MarkerAgent/${randomBytes(6).toString('hex')}` };
    const from = { 'x-forwarded-for': marker.ip, 'user-agent': marker.agent };
    const member = await addMember(t, owner, 'agent');
    const signedIn = await t.client.post('/api/session', { email: member.email, password: member.password }, { headers: from });
    expect(signedIn.status).to.equal(201);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const memberKey = (
      await t.client.post('/api/keys', { name: 'agent tool', scopes: ['conversations:write'] }, { cookie, workspace: owner.workspaceId, headers: from })
    ).body;
    const inbound = await postInbound(t, ch.id, ch.secret, inboundBody());
    const reply = await t.client.post(
      `/api/conversations/${inbound.body.conversation_id}/reply`,
      { body: 'Looking into it.', message_type: 'comment' },
      { key: memberKey.secret, headers: from },
    );
    expect(reply.status, reply.text).to.equal(201);
    await t.client.post('/api/session', { email: member.email, password: 'wrong password' }, { headers: from });
    const byMember = () => all(`actor_id=${member.memberId}`).then(async (es) => [...es, ...(await all(`aggregate_id=${member.memberId}`))]);
    const before = await eventually(byMember, (es) => es.some((e) => e.action === 'session.failed'));
    const withClient = before.filter((e) => e.ip === marker.ip);
    expect(withClient.map((e) => e.action)).to.include.members([
      'session.created',
      'api_key.created',
      'api_key.new_address',
      'conversation_part.created',
      'session.failed',
    ]);
    expect(withClient.every((e) => e.user_agent === marker.agent)).to.equal(true);
    const dump = await dumpDatabase(t.testDb.db);
    expect(dump.includes(marker.agent), 'the marker is not stored in plaintext even before the erasure').to.equal(false);

    const as = { cookie: owner.cookie, workspace: owner.workspaceId };
    expect((await t.client.delete(`/api/members/${member.memberId}`, as)).status).to.equal(200);
    const erased = await t.client.post(`/api/members/${member.memberId}/erase`, undefined, as);
    expect(erased.status, erased.text).to.equal(200);

    const after = await byMember();
    const ids = new Set(withClient.map((e) => e.id));
    const same = after.filter((e) => ids.has(e.id));
    expect(same.length).to.equal(withClient.length);
    expect(
      same.every((e) => e.ip === null && e.user_agent === null),
      JSON.stringify(same.filter((e) => e.ip !== null)),
    ).to.equal(true);
    const afterDump = await dumpDatabase(t.testDb.db);
    for (const m of [marker.ip, marker.agent]) {
      expect(afterDump.includes(m), `${m} in the dump`).to.equal(false);
      expect(afterDump.includes(Buffer.from(m, 'utf8').toString('hex')), `${m} (hex) in the dump`).to.equal(false);
    }
    expect(await t.testDb.db('audit_key_addresses').where({ tenant_id: owner.workspaceId, member_id: member.memberId })).to.deep.equal([]);
  });

  it("lists an invite's acceptance as the joining member, with the address and user agent it was accepted from", async () => {
    const email = `joiner-${randomBytes(4).toString('hex')}@example.com`;
    const inv = await t.client.post('/api/members/invites', { email, role: 'agent' }, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(inv.status, inv.text).to.equal(201);
    const acc = await t.client.post(
      '/api/invites/accept',
      { token: inv.body.token, name: 'Joiner', password: 'a joiner secret pw' },
      { headers: { 'x-forwarded-for': '198.51.100.23', 'x-request-id': 'accept-1', 'user-agent': 'JoinerBrowser/3.0' } },
    );
    expect(acc.status, acc.text).to.equal(202);
    const joined = (await all('action=member.joined')).filter((e) => e.request_id === 'accept-1');
    expect(joined).to.have.length(1);
    expect(joined[0]!.actor.type).to.equal('member');
    expect(joined[0]!.actor.member_id).to.equal(joined[0]!.aggregate_id);
    expect(joined[0]).to.deep.include({ ip: '198.51.100.23', user_agent: 'JoinerBrowser/3.0' });
  });

  it('deletes entries beside the log after AUDIT_RETENTION_DAYS and keeps every event', async () => {
    const before = await all();
    const head = await t.service.deps.store.head(owner.workspaceId);
    expect(before.some((e) => e.seq === null)).to.equal(true);
    clock.advance(t.service.deps.config.auditRetentionDays * 86_400_000 + 3_600_000);
    const signedIn = await t.client.post('/api/session', { email: owner.email, password: owner.password }, { headers: { 'x-request-id': 'signin-recent' } });
    expect(signedIn.status).to.equal(201);
    const retention = t.service.workers.find((w) => w.name === 'audit-log-retention') as RetentionWorker;
    expect(await retention.sweep()).to.be.greaterThan(0);
    const kept = await all();
    const beside = kept.filter((e) => e.seq === null);
    const cutoff = clock.now().getTime() - t.service.deps.config.auditRetentionDays * 86_400_000;
    expect(beside.map((e) => e.request_id)).to.include('signin-recent');
    expect(beside.filter((e) => Date.parse(e.created_at) < cutoff)).to.deep.equal([]);
    expect(before.filter((e) => e.seq === null).every((e) => Date.parse(e.created_at) < cutoff)).to.equal(true);
    expect(kept.filter((e) => e.seq !== null).map((e) => e.seq)).to.deep.equal(Array.from({ length: head }, (_, i) => head - i));
  });
});

describe('the audit log with the log in EventStoreDB (server model)', function () {
  this.timeout(240_000);
  let t: TestService;
  let server: EsdbModelServer;

  before(async () => {
    server = new EsdbModelServer();
    const env = { EVENTSTORE_URL: await server.start(), TRUST_PROXY: 'loopback' };
    t = await startTestService('audit_log_esdb', { env, testDb: await createTestDb('audit_log_esdb', { max: 30 }) });
    expect(t.service.deps.store.kind).to.equal('eventstoredb');
  });
  after(async () => {
    await t?.close();
    await server?.stop();
  });

  it('lists the events with their actor, address and request from the metadata the log keeps, beside the sign-ins', async () => {
    const owner = await newWorkspace(t, 'Audited on EventStoreDB');
    const key = await mintKey(t, owner, ['conversations:write', 'audit:read']);
    const ch = await createChannel(t, owner);
    const started = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, body: 'Your order shipped.', contact: { email: 'buyer@example.com' } },
      { key: key.secret, headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'esdb-start', 'user-agent': 'EsdbBot/1.0' } },
    );
    expect(started.status, started.text).to.equal(201);
    const r = await t.client.get('/api/audit_log?action=conversation.created', { key: key.secret });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.data).to.have.length(1);
    expect(r.body.data[0]).to.deep.include({
      aggregate_id: started.body.id,
      actor: { type: 'api_key', id: key.id, member_id: owner.memberId },
      ip: '203.0.113.9',
      user_agent: 'EsdbBot/1.0',
      request_id: 'esdb-start',
    });
    expect(r.body.data[0].seq).to.be.a('number');
    const signIns = await t.client.get('/api/audit_log?action=session.created', { key: key.secret });
    expect(signIns.body.data.map((e: Entry) => e.aggregate_id)).to.deep.equal([owner.memberId]);
  });
});
