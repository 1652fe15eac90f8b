import { expect } from 'chai';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { toEnvelope } from '../../src/eventstore/envelope.js';
import { rebuildReadModels } from '../../src/projections/rebuild.js';

describe('change feed', function () {
  let t: TestService;
  let owner: Member;
  let key: string;

  before(async () => {
    t = await startTestService('feed');
    owner = await newWorkspace(t);
    const ch = await createChannel(t, owner);
    key = (await mintKey(t, owner, ['events:read', 'conversations:write'])).secret;
    for (let i = 0; i < 30; i++) await postInbound(t, ch.id, ch.secret, inboundBody());
    await newWorkspace(t, 'Noise'); // another tenant's events must not show up
  });
  after(async () => t.close());

  async function readAll(query = ''): Promise<any[]> {
    const out: any[] = [];
    let next: string | null = null;
    for (let i = 0; i < 100; i++) {
      const r = await t.client.get(`/api/events?per_page=7${query}${next ? `&starting_after=${next}` : ''}`, { key });
      expect(r.status, r.text).to.equal(200);
      out.push(...r.body.data);
      next = r.body.pages.next?.starting_after ?? null;
      if (!next) break;
    }
    return out;
  }

  it("equals the event store's log for the workspace from seq 1, in order, without a gap", async () => {
    const feed = await readAll();
    const log = await t.service.deps.store.readTenant(owner.workspaceId, 0, 10_000);
    expect(feed.map((e) => e.seq)).to.deep.equal(log.map((_, i) => i + 1));
    expect(feed.map(({ id: _id, ...envelope }) => envelope)).to.deep.equal(log.map(toEnvelope));
    expect(feed.map((e) => e.id)).to.deep.equal(log.map((e) => e.id));
    expect(Object.keys(feed[0]).sort()).to.deep.equal(['aggregate_id', 'aggregate_type', 'created_at', 'id', 'payload', 'seq', 'tenant_id', 'type']);
  });

  it('resumes from after_seq and filters by type', async () => {
    const resumed = await readAll('&after_seq=50');
    expect(resumed[0].seq).to.equal(51);
    const parts = await readAll('&types=conversation_part.created');
    expect(parts).to.have.length(30);
    expect(parts.every((e) => e.type === 'conversation_part.created' && e.aggregate_type === 'conversation')).to.equal(true);
    const desc = await t.client.get('/api/events?order=desc', { key });
    expect(desc.status).to.equal(400);
    // A type the service never emits is a typo, not an empty filter.
    const typo = await t.client.get('/api/events?types=conversation_part.created,conversation.part_created', { key });
    expect(typo.status, typo.text).to.equal(400);
    expect(typo.body.errors[0]).to.include({ code: 'unknown_event_type', field: 'types' });
  });

  it('is the log itself with the Postgres store: no copy is written, and a rebuild empties the copy an earlier version kept', async () => {
    const { db, store } = t.service.deps;
    const copies = async () => Number((await db('feed_events').count<{ n: string }[]>({ n: '*' }))[0]!.n);
    if (store.kind === 'eventstoredb') {
      // (TEST_EVENT_STORE=eventstoredb) The feed is the copy the feed projector keeps, one row per event; a rebuild
      // makes it again, and the feed reads the same.
      const feed = await readAll();
      const mine = async () => Number((await db('feed_events').where({ tenant_id: owner.workspaceId }).count<{ n: string }[]>({ n: '*' }))[0]!.n);
      expect(await mine(), 'rows in feed_events for the workspace').to.equal(feed.length);
      await rebuildReadModels(db, store, t.service.engine);
      expect(await mine()).to.equal(feed.length);
      expect(await readAll()).to.deep.equal(feed);
      return;
    }
    expect(store.kind).to.equal('postgres');
    expect(await copies(), 'rows in feed_events after the writes').to.equal(0);
    const feed = await readAll();
    expect(feed.length).to.be.greaterThan(30);
    // What the feed projector wrote before migration 027: one envelope of the log, payload as stored.
    const kept = await db('events')
      .where({ tenant_id: owner.workspaceId, seq: 1 })
      .first('tenant_id', 'seq', 'id', 'type', 'aggregate_type', 'aggregate_id', 'payload', 'created_at');
    await db('feed_events').insert(kept);
    expect(await copies()).to.equal(1);
    await rebuildReadModels(db, store, t.service.engine);
    expect(await copies(), 'rows in feed_events after a rebuild').to.equal(0);
    expect(await readAll()).to.deep.equal(feed);
  });

  it('needs events:read', async () => {
    const k = (await mintKey(t, owner, ['conversations:read'])).secret;
    const r = await t.client.get('/api/events', { key: k });
    expect(r.status).to.equal(403);
    expect(r.body.errors[0].message).to.include('events:read');
  });
});
