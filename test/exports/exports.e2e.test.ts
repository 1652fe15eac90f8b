// Subject-access exports end to end: request (202), the worker builds the file,
// status, download (opened), one active export per contact, expiry, scopes,
// tenancy, erasure, redaction reaching the stored file, retries, and a lease
// taken over after its worker died. The service runs without background
// workers here; each test drives the exports worker by hand (tick, sweep).
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { exportsWorker, LEASE_MS, MAX_ATTEMPTS, type ExportsWorker } from '../../src/capabilities/exports/exports.worker.js';
import { claimNext } from '../../src/capabilities/exports/exports.repo.js';
import { buildDocument } from '../../src/capabilities/exports/exports.document.js';
import { ConversationAnswers, exportSources, feedTable, renderCompany, type ExportSources } from '../../src/capabilities/exports/exports.sources.js';
import { findCompany } from '../../src/capabilities/companies/index.js';
import { outboundWorker } from '../../src/capabilities/outbound/outbound.worker.js';
import { testEventStoreEnv } from '../support/event-store.js';
import { addMember, mintKey, newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';

const SECRETS_KEY = 'exports-test-secrets-key-0123456789abcdef';

interface Subject {
  contactId: string;
  conversations: string[];
  replyPartId: string;
}

describe('subject-access exports', function () {
  let t: TestService;
  /** the sources the service's own worker reads through: tests replace one at a time */
  let sources: ExportSources;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  let ch: { id: string; secret: string };
  let worker: ExportsWorker;
  let n = 0;

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('exports', { clock, env: { WORKERS: 'off', SERVICE_SECRETS_KEY: SECRETS_KEY } });
    sources = exportSources(ConversationAnswers.of(t.service.deps.additions));
    owner = await newWorkspace(t);
    ch = await createChannel(t, owner);
    key = (
      await mintKey(t, owner, [
        'contacts:export',
        'contacts:read',
        'contacts:write',
        'contacts:delete',
        'conversations:read',
        'conversations:write',
        'conversations:delete',
        'events:read',
        'settings:read',
        'settings:write',
      ])
    ).secret;
    worker = exportsWorker(t.service.deps);
  });
  after(async () => t?.close());

  /** A contact with unique markers: an inbound thread with a reply and a note, and a second conversation started by an agent. */
  async function subject(tag = `m${++n}-${randomUUID().slice(0, 8)}`) {
    const markers = {
      name: `Name ${tag}`,
      email: `${tag}@example.com`,
      phone: `+1555${n}${n}`,
      inbound: `Inbound ${tag}`,
      reply: `Reply ${tag}`,
      note: `Note ${tag}`,
      subject: `Subject ${tag}`,
    };
    const inbound = await postInbound(
      t,
      ch.id,
      ch.secret,
      inboundBody({ contact: { external_id: `ext-${tag}`, name: markers.name, email: markers.email, phone: markers.phone }, content: markers.inbound }),
    );
    expect(inbound.status, inbound.text).to.equal(201);
    const conv = inbound.body.conversation_id as string;
    const reply = await t.client.post(`/api/conversations/${conv}/reply`, { body: markers.reply, message_type: 'comment' }, { key });
    expect(reply.status, reply.text).to.equal(201);
    expect((await t.client.post(`/api/conversations/${conv}/reply`, { body: markers.note, message_type: 'note' }, { key })).status).to.equal(201);
    const second = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, body: `Second ${tag}`, subject: markers.subject, contact_id: inbound.body.contact_id },
      { key },
    );
    expect(second.status, second.text).to.equal(201);
    const out: Subject = { contactId: inbound.body.contact_id, conversations: [conv, second.body.id], replyPartId: reply.body.id };
    return { ...out, tag, markers };
  }

  const request = (contactId: string, o: { k?: string; headers?: Record<string, string> } = {}) =>
    t.client.post(`/api/contacts/${contactId}/exports`, undefined, { key: o.k ?? key, headers: o.headers });
  const status = (id: string, k = key) => t.client.get(`/api/exports/${id}`, { key: k });
  const download = (id: string, k = key) => t.client.get(`/api/exports/${id}/download`, { key: k });

  async function completed(contactId: string): Promise<string> {
    const r = await request(contactId);
    expect(r.status, r.text).to.equal(202);
    expect(await worker.tick()).to.be.greaterThan(0);
    expect((await status(r.body.id)).body.status).to.equal('completed');
    return r.body.id;
  }

  it('answers 202 queued, and the worker builds the file: the contact, their conversations with every part, the events about them', async () => {
    const s = await subject();
    const other = await subject(); // another contact's data stays out
    // the contact belongs to a company, with a custom attribute
    const company = await t.client.post('/api/companies', { company_id: `co-${s.tag}`, name: `Co ${s.tag}` }, { key });
    expect((await t.client.post(`/api/contacts/${s.contactId}/companies`, { company_id: company.body.id }, { key })).status).to.equal(200);
    expect((await t.client.put(`/api/contacts/${s.contactId}`, { custom_attributes: { tier: `gold-${s.tag}` } }, { key })).status).to.equal(200);
    const r = await request(s.contactId);
    expect(r.status, r.text).to.equal(202);
    expect(r.body).to.include({
      type: 'export',
      contact_id: s.contactId,
      status: 'queued',
      progress: 0,
      size: null,
      expires_at: null,
      completed_at: null,
      error: null,
    });
    expect(r.body.requested_by.type).to.equal('api_key');
    expect(r.headers.get('location')).to.equal(`/api/exports/${r.body.id}`);
    expect((await status(r.body.id)).body.status).to.equal('queued');

    const early = await download(r.body.id);
    expect(early.status).to.equal(409);
    expect(early.body.errors[0].code).to.equal('export_not_ready');

    expect(await worker.tick()).to.equal(1);
    const done = await status(r.body.id);
    expect(done.status).to.equal(200);
    expect(done.body).to.include({ status: 'completed', progress: 1, error: null });
    expect(done.body.size).to.be.a('number').greaterThan(0);
    expect(Date.parse(done.body.expires_at) - Date.parse(done.body.completed_at)).to.equal(48 * 3600_000);

    const file = await download(r.body.id);
    expect(file.status).to.equal(200);
    expect(file.headers.get('content-type')).to.match(/^application\/json/);
    expect(file.headers.get('content-disposition')).to.equal(`attachment; filename="contact-${s.contactId}-export-${r.body.id}.json"`);
    expect(Buffer.byteLength(file.text), 'size is the bytes of the download').to.equal(done.body.size);
    const doc = file.body;
    expect(Object.keys(doc)).to.deep.equal([
      'type',
      'id',
      'workspace_id',
      'contact_id',
      'generated_at',
      'contact',
      'companies',
      'conversations',
      'outbound',
      'events',
    ]);
    expect(doc).to.include({ type: 'contact_export', id: r.body.id, workspace_id: owner.workspaceId, contact_id: s.contactId });
    // The contact as GET /api/contacts/{id} shows it, and their companies as GET /api/companies/{id} does.
    expect(doc.contact).to.deep.equal((await t.client.get(`/api/contacts/${s.contactId}`, { key })).body);
    expect(doc.contact).to.deep.include({
      external_id: `ext-${s.tag}`,
      email: s.markers.email,
      name: s.markers.name,
      phone: s.markers.phone,
      custom_attributes: { tier: `gold-${s.tag}` },
    });
    expect(doc.companies).to.deep.equal([(await t.client.get(`/api/companies/${company.body.id}`, { key })).body]);

    // Conversations as GET /api/conversations/{id} renders them, every part included.
    expect(doc.conversations.map((c: { id: string }) => c.id)).to.have.members(s.conversations);
    for (const c of doc.conversations) {
      const api = (await t.client.get(`/api/conversations/${c.id}`, { key })).body;
      expect(c).to.deep.equal(api);
    }
    const bodies = doc.conversations.flatMap((c: { parts: { body: string }[] }) => c.parts.map((p) => p.body));
    expect(bodies).to.include.members([s.markers.inbound, s.markers.reply, s.markers.note]);
    expect(doc.conversations.find((c: { id: string }) => c.id === s.conversations[1]).subject).to.equal(s.markers.subject);

    // Events whose aggregate is the contact or one of their conversations, in seq order, opened.
    const about = new Set([s.contactId, ...s.conversations]);
    expect(doc.events.every((e: { aggregate_id: string }) => about.has(e.aggregate_id))).to.equal(true);
    const seqs = doc.events.map((e: { seq: number }) => e.seq);
    expect(seqs).to.deep.equal([...seqs].sort((a, b) => a - b));
    const types = doc.events.map((e: { type: string }) => e.type);
    expect(types).to.include.members(['contact.created', 'conversation.created', 'conversation_part.created']);
    expect(doc.events.find((e: { type: string }) => e.type === 'contact.created').payload.name).to.equal(s.markers.name);
    expect(doc.events.some((e: { payload: { body?: string } }) => e.payload.body === s.markers.reply)).to.equal(true);
    const feed = (await t.client.get(`/api/events?per_page=150`, { key })).body.data.filter((e: { aggregate_id: string }) => about.has(e.aggregate_id));
    expect(doc.events).to.deep.equal(feed);
    expect(JSON.stringify(doc)).to.not.include(other.markers.name).and.not.include(other.markers.reply);

    // Stored sealed: no personal value in plaintext in the row.
    const row = await t.testDb.db('exports').where({ id: r.body.id }).first('file');
    const stored = (row.file as Buffer).toString('utf8');
    expect(stored).to.include('$sealed_value').and.include('$sealed');
    for (const m of Object.values(s.markers)) expect(stored, m).to.not.include(m);
  });

  it('allows one active export per contact: 409 export_in_progress naming it; a finished one makes room; Idempotency-Key replays', async () => {
    const s = await subject();
    const first = await request(s.contactId);
    expect(first.status).to.equal(202);
    const again = await request(s.contactId);
    expect(again.status).to.equal(409);
    expect(again.body.errors[0].code).to.equal('export_in_progress');
    expect(again.body.errors[0].message).to.include(first.body.id);
    expect(again.headers.get('location')).to.equal(`/api/exports/${first.body.id}`);

    await worker.tick();
    const k = { 'idempotency-key': `export-${s.contactId}` };
    const second = await request(s.contactId, { headers: k });
    expect(second.status).to.equal(202);
    expect(second.body.id).to.not.equal(first.body.id);
    const replay = await request(s.contactId, { headers: k });
    expect(replay.status).to.equal(202);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.text).to.equal(second.text);
    const third = await request(s.contactId);
    expect(third.status).to.equal(409);
    expect(third.body.errors[0].message).to.include(second.body.id);
    await worker.tick();
  });

  it('expires the file EXPORT_TTL_HOURS after completion: the sweep deletes it, status expired, download 410', async () => {
    const s = await subject();
    const id = await completed(s.contactId);
    clock.advance(48 * 3600_000 - 60_000);
    expect(await worker.sweep()).to.equal(0);
    expect((await download(id)).status).to.equal(200);
    clock.advance(120_000);
    expect(await worker.sweep()).to.be.greaterThan(0); // earlier tests' exports too: they completed at the same (manual) time
    const st = await status(id);
    expect(st.body).to.include({ status: 'expired' });
    const gone = await download(id);
    expect(gone.status).to.equal(410);
    expect(gone.body.errors[0].code).to.equal('export_expired');
    expect((await t.testDb.db('exports').where({ id }).first('file')).file).to.equal(null);
    expect((await request(s.contactId)).status, 'an expired export is not active').to.equal(202);
    await worker.tick();
  });

  it('takes over a claimed export whose worker died once its lease runs out', async () => {
    const s = await subject();
    const r = await request(s.contactId);
    // A worker of another process claims it and dies without a word.
    const claimed = await claimNext(t.service.deps.db, clock.now(), LEASE_MS);
    expect(claimed?.id).to.equal(r.body.id);
    expect((await status(r.body.id)).body.status).to.equal('running');
    expect(await worker.tick(), 'the lease holds').to.equal(0);
    clock.advance(LEASE_MS + 1);
    expect(await worker.tick()).to.equal(1);
    expect((await status(r.body.id)).body.status).to.equal('completed');
    expect((await t.testDb.db('exports').where({ id: r.body.id }).first('attempts')).attempts).to.equal(2);
    // The dead worker's late writes change nothing: its lease token is no longer the row's.
    const late = await worker.build(claimed!);
    expect(late).to.equal('lost');
    expect((await status(r.body.id)).body.status).to.equal('completed');
  });

  it('retries a failing build with back-off, then marks it failed (download 409 export_failed; a new request is allowed)', async () => {
    const s = await subject();
    const broken = exportsWorker(t.service.deps, {
      sources: {
        ...sources,
        conversations: async () => {
          throw new Error('boom');
        },
      },
    });
    const r = await request(s.contactId);
    expect(await broken.tick()).to.equal(0);
    expect((await status(r.body.id)).body).to.include({ status: 'queued', error: null });
    expect(await broken.tick(), 'waits out the retry delay').to.equal(0);
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      clock.advance(30_000 * 2 ** (attempt - 2) + 1);
      await broken.tick();
    }
    const st = await status(r.body.id);
    expect(st.body.status).to.equal('failed');
    expect(st.body.error).to.be.a('string');
    const dl = await download(r.body.id);
    expect(dl.status).to.equal(409);
    expect(dl.body.errors[0].code).to.equal('export_failed');
    expect((await request(s.contactId)).status).to.equal(202);
    await worker.tick();
  });

  it('opens the stored file at download time: a part redacted after the export reads as null there too', async () => {
    const s = await subject();
    const id = await completed(s.contactId);
    const size = (await status(id)).body.size;
    const redact = await t.client.post(`/api/conversations/${s.conversations[0]}/parts/${s.replyPartId}/redact`, undefined, { key });
    expect(redact.status, redact.text).to.equal(200);
    const file = await download(id);
    expect(file.status).to.equal(200);
    const part = file.body.conversations.flatMap((c: { parts: { id: string }[] }) => c.parts).find((p: { id: string }) => p.id === s.replyPartId);
    expect(part).to.include({ body: null });
    expect(part.attachments).to.deep.equal([]);
    const created = file.body.events.find(
      (e: { type: string; payload: { part_id?: string } }) => e.type === 'conversation_part.created' && e.payload.part_id === s.replyPartId,
    );
    expect(created.payload.body).to.equal(null);
    expect(file.text).to.not.include(s.markers.reply);
    expect(file.text).to.include(s.markers.note);
    expect(Buffer.byteLength(file.text)).to.be.lessThan(size);
  });

  it('reports progress as the share of steps done', async () => {
    const s = await subject();
    const seen: number[] = [];
    const doc = await buildDocument({
      db: t.service.deps.db,
      tenantId: owner.workspaceId,
      exportId: randomUUID(),
      contactId: s.contactId,
      now: clock.now(),
      sources,
      feed: feedTable(t.service.deps.store.kind),
      progress: async (p) => void seen.push(p),
    });
    expect(doc!.conversations).to.have.length(2);
    expect(seen).to.deep.equal([1 / 4, 2 / 4, 3 / 4]);
  });

  it("includes the contact's companies, rendered as GET /api/companies/{id} (through the companies hook)", async () => {
    const s = await subject();
    const company = await t.client.post('/api/companies', { company_id: `co-${s.contactId}`, name: 'Acme' }, { key });
    expect(company.status, company.text).to.equal(201);
    const withCompanies = exportsWorker(t.service.deps, {
      sources: { ...sources, companies: async (db, tenantId) => [renderCompany((await findCompany(db, tenantId, company.body.id))!)] },
    });
    const r = await request(s.contactId);
    expect(await withCompanies.tick()).to.equal(1);
    expect((await download(r.body.id)).body.companies).to.deep.equal([company.body]);
  });

  it("includes the contact's outbound recipient records: which campaigns reached them, and how", async () => {
    const s = await subject();
    const manage = { key };
    const ch = await createChannel(t, owner);
    const c = await t.client.post(
      '/api/outbound',
      { name: `Campaign ${s.contactId}`, channel_id: ch.id, body: 'Hi {{contact.name}}', audience: { contact_ids: [s.contactId] } },
      manage,
    );
    expect(c.status, c.text).to.equal(201);
    expect((await t.client.post(`/api/outbound/${c.body.id}/send`, undefined, manage)).status).to.equal(200);
    expect(await outboundWorker(t.service.deps).tick()).to.equal(1);
    const recipients = (await t.client.get(`/api/outbound/${c.body.id}/recipients`, manage)).body.data;
    expect(recipients).to.have.length(1);
    const r = await request(s.contactId);
    expect(await worker.tick()).to.equal(1);
    const doc = (await download(r.body.id)).body;
    expect(doc.outbound).to.deep.equal([{ ...recipients[0], collection_name: `Campaign ${s.contactId}` }]);
    expect(doc.outbound[0]).to.include({ status: 'sent', contact_id: s.contactId });
    expect(doc.conversations.map((x: { id: string }) => x.id)).to.include(recipients[0].conversation_id);
  });

  it('needs contacts:export for every export route (contacts:read is not enough), and admins hold it, agents do not', async () => {
    const s = await subject();
    const id = await completed(s.contactId);
    const fresh = { ...owner, cookie: await signIn(t, owner.email, owner.password) }; // minting needs a recent sign-in; the clock moved
    const reader = (await mintKey(t, fresh, ['contacts:read', 'conversations:read'])).secret;
    for (const r of [await request(s.contactId, { k: reader }), await status(id, reader), await download(id, reader)]) {
      expect(r.status).to.equal(403);
      expect(r.body.errors[0]).to.include({ code: 'missing_scope' });
      expect(r.body.errors[0].message).to.include('contacts:export');
    }
    const admin = await addMember(t, owner, 'admin');
    const adminKey = (await mintKey(t, admin, ['contacts:export'])).secret;
    expect((await download(id, adminKey)).status).to.equal(200);
    const agent = await addMember(t, owner, 'agent');
    const refused = await t.client.post('/api/keys', { name: 'x', scopes: ['contacts:export'] }, { cookie: agent.cookie, workspace: agent.workspaceId });
    expect(refused.status).to.equal(403);
    expect(refused.body.errors[0].code).to.equal('scope_exceeds_role');
  });

  it("answers 404 for another workspace's contact and exports, unknown ids and malformed ids", async () => {
    const s = await subject();
    const id = await completed(s.contactId);
    const stranger = await newWorkspace(t, 'Other');
    const theirs = (await mintKey(t, stranger, ['contacts:export', 'contacts:read'])).secret;
    for (const r of [await request(s.contactId, { k: theirs }), await status(id, theirs), await download(id, theirs)]) {
      expect(r.status).to.equal(404);
      expect(r.body.errors[0].code).to.equal('not_found');
    }
    for (const r of [
      await request(randomUUID()),
      await request('not-a-uuid'),
      await status(randomUUID()),
      await status('nope'),
      await download(randomUUID()),
    ]) {
      expect(r.status).to.equal(404);
    }
  });

  it("deletes a contact's exports when the contact is erased (DELETE /api/contacts/{id}); a new request is 410 contact_erased", async () => {
    const s = await subject();
    const done = await completed(s.contactId);
    const queued = (await request(s.contactId)).body.id as string;
    const keep = await subject();
    const kept = await completed(keep.contactId);

    const erase = await t.client.delete(`/api/contacts/${s.contactId}`, { key });
    expect(erase.status, erase.text).to.equal(200);

    expect(Number((await t.testDb.db('exports').where({ contact_id: s.contactId }).count('* as n').first())!.n)).to.equal(0);
    expect((await status(done)).status).to.equal(404);
    expect((await status(queued)).status).to.equal(404);
    expect((await download(done)).status).to.equal(404);
    const after = await request(s.contactId);
    expect(after.status).to.equal(410);
    expect(after.body.errors[0].code).to.equal('contact_erased');
    expect(await worker.tick(), 'nothing left to build').to.equal(0);
    expect((await status(kept)).body.status, 'other contacts keep theirs').to.equal('completed');
  });

  it('drops an export whose contact was erased between the request and the build', async () => {
    const s = await subject();
    const r = await request(s.contactId);
    // The erasure's own delete ran before the request was stored: simulate by erasing under a queued row the projector missed.
    const racing = exportsWorker(t.service.deps, {
      sources: { ...sources, erased: async (db, tenantId, contactId) => contactId === s.contactId || sources.erased(db, tenantId, contactId) },
    });
    expect(await racing.tick()).to.equal(0);
    expect((await status(r.body.id)).status).to.equal(404);
  });
});

describe('subject-access exports across restarts', function () {
  it('completes an export queued before a restart, on a new service instance over the same database', async () => {
    const { startService } = await import('../../src/service.js');
    const { loadConfig } = await import('../../src/config.js');
    const { createLogger } = await import('../../src/platform/logger.js');
    const { Client } = await import('../support/http.js');
    const { eventually } = await import('../support/events.js');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const t = await startTestService('exports_restart', { env: { WORKERS: 'off', SERVICE_SECRETS_KEY: SECRETS_KEY } });
    const dataDir = await mkdtemp('/tmp/cs-exports-');
    try {
      const owner = await newWorkspace(t);
      const ch = await createChannel(t, owner);
      const key = (await mintKey(t, owner, ['contacts:export'])).secret;
      const inbound = await postInbound(t, ch.id, ch.secret, inboundBody({ content: 'Before the restart' }));
      const r = await t.client.post(`/api/contacts/${inbound.body.contact_id}/exports`, undefined, { key });
      expect(r.status).to.equal(202);
      await t.service.close(); // no worker ever ran: the export is queued in Postgres

      // The run's store (TEST_EVENT_STORE), as the first service had it: one database, one log.
      const config = loadConfig({
        DATABASE_URL: t.testDb.url,
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SERVICE_SECRETS_KEY: SECRETS_KEY,
        ...testEventStoreEnv(t.testDb.url),
      });
      const second = await startService({ config, log: createLogger('silent') });
      try {
        const c = new Client(second.url);
        const st = await eventually(
          () => c.get(`/api/exports/${r.body.id}`, { key }),
          (x) => x.body?.status === 'completed',
          15_000,
        );
        expect(st.body.size).to.be.greaterThan(0);
        const file = await c.get(`/api/exports/${r.body.id}/download`, { key });
        expect(file.status).to.equal(200);
        expect(file.body.conversations[0].parts[0].body).to.equal('Before the restart');
      } finally {
        await second.close();
      }
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
