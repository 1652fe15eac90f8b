// Priority and typed custom attributes on conversations, through the HTTP API: set at creation and by parts
// (priority), defined in a catalog and set with PUT /api/conversations/{id} (attributes), both filtered, searched
// and used by views; attribute values are personal data, sealed in the log and gone with the contact.
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { inboundBody, postInbound } from '../support/channels.js';
import { ADMIN_SCOPES, mintKey, type Member, type TestService } from '../support/service.js';
import { eventsAsStored } from '../support/event-store.js';
import { rebuildReadModels } from '../../src/projections/rebuild.js';

type Reply = { status: number; text: string; body: any };

describe('priority and typed custom attributes on conversations', function () {
  this.timeout(180_000);
  const fx = capabilityFixture('conv-attributes', {
    scopes: ADMIN_SCOPES,
  });
  let t: TestService;
  let owner: Member;
  let admin: string;
  let agent: string;
  let channel: { id: string; secret: string };

  before(async () => {
    ({ t, owner, key: admin, channel } = fx);
    agent = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write'])).secret;
  });

  const ok = (r: Promise<Reply>, status = 200) => fx.ok(r, status);
  const start = async (extra: Record<string, unknown> = {}) =>
    (await ok(
      t.client.post(
        '/api/conversations',
        { channel_id: channel.id, body: 'Hello', contact: { email: `c-${Math.random().toString(36).slice(2)}@example.com` }, ...extra },
        { key: agent },
      ),
      201,
    )) as { id: string; priority: string; custom_attributes: Record<string, unknown>; contact_id: string };
  const search = async (query: unknown) =>
    ((await ok(t.client.post('/api/conversations/search', { query, per_page: 100 }, { key: agent }))).data as { id: string }[]).map((c) => c.id).sort();
  const define = async (body: Record<string, unknown>) =>
    (await ok(t.client.post('/api/conversation_attributes', body, { key: admin }), 201)) as { id: string };
  const setValues = (id: string, values: Record<string, unknown>) => t.client.put(`/api/conversations/${id}`, { custom_attributes: values }, { key: agent });
  const feed = async (types: string) => (await ok(t.client.get(`/api/events?per_page=100&types=${types}`, { key: admin }))).data as any[];

  describe('priority', () => {
    it('is normal by default, set at creation, changed by a priority part (its own part and event), filtered and searched', async () => {
      const plain = await start();
      expect(plain.priority).to.equal('normal');
      const urgent = await start({ priority: 'urgent' });
      expect(urgent.priority).to.equal('urgent');
      const inbound = await ok(postInbound(t, channel.id, channel.secret, inboundBody()), 201);
      expect((await ok(t.client.get(`/api/conversations/${inbound.conversation_id}`, { key: agent }))).priority).to.equal('normal');

      const part = await ok(t.client.post(`/api/conversations/${plain.id}/parts`, { message_type: 'priority', priority: 'high' }, { key: agent }), 201);
      expect(part).to.include({ part_type: 'priority', priority: 'high' });
      expect(part.conversation.priority).to.equal('high');
      const events = (await feed('conversation_part.created')).filter((e) => e.payload.part_type === 'priority');
      expect(events.map((e) => [e.aggregate_id, e.payload.priority])).to.deep.equal([[plain.id, 'high']]);
      const created = (await feed('conversation.created')).find((e) => e.aggregate_id === urgent.id);
      expect(created.payload.priority).to.equal('urgent');

      const missing = await t.client.post(`/api/conversations/${plain.id}/parts`, { message_type: 'priority' }, { key: agent });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors[0]).to.include({ code: 'missing_field', field: 'priority' });
      const wrong = await t.client.post(`/api/conversations/${plain.id}/parts`, { message_type: 'priority', priority: 'asap' }, { key: agent });
      expect(wrong.status).to.equal(400);
      const badStart = await t.client.post(
        '/api/conversations',
        { channel_id: channel.id, body: 'x', contact: { email: 'z@example.com' }, priority: 'p1' },
        { key: agent },
      );
      expect(badStart.status).to.equal(400);

      const listed = await ok(t.client.get('/api/conversations?priority=urgent&per_page=100', { key: agent }));
      expect(listed.data.map((c: { id: string }) => c.id)).to.deep.equal([urgent.id]);
      expect(await search({ field: 'priority', operator: 'IN', value: ['high', 'urgent'] })).to.deep.equal([plain.id, urgent.id].sort());
      const badQuery = await t.client.post('/api/conversations/search', { query: { field: 'priority', operator: '=', value: 'asap' } }, { key: agent });
      expect(badQuery.status).to.equal(400);
      expect(badQuery.body.errors[0]).to.include({ code: 'invalid_query', field: 'query.value' });
    });
  });

  describe('custom attributes', () => {
    let category: { id: string };
    before(async () => {
      category = await define({ name: 'category', data_type: 'list', options: ['billing', 'bug', 'question'], description: 'What the request is about' });
      await define({ name: 'seats', data_type: 'integer' });
      await define({ name: 'amount', data_type: 'float' });
      await define({ name: 'vip', data_type: 'boolean' });
      await define({ name: 'renewal', data_type: 'date' });
      await define({ name: 'order_ref', data_type: 'string' });
    });

    it('definitions: created, listed, read, changed (not their name or type), archived, and deleted only when unused', async () => {
      const list = await ok(t.client.get('/api/conversation_attributes', { key: agent }));
      expect(list.data.map((d: { name: string }) => d.name)).to.deep.equal(['amount', 'category', 'order_ref', 'renewal', 'seats', 'vip']);
      const got = await ok(t.client.get(`/api/conversation_attributes/${category.id}`, { key: agent }));
      expect(got).to.include({
        type: 'conversation_attribute',
        name: 'category',
        data_type: 'list',
        archived: false,
        description: 'What the request is about',
      });
      expect(got.options).to.deep.equal(['billing', 'bug', 'question']);

      const dup = await t.client.post('/api/conversation_attributes', { name: 'category', data_type: 'string' }, { key: admin });
      expect(dup.status).to.equal(409);
      expect(dup.body.errors[0].code).to.equal('attribute_exists');
      const noOptions = await t.client.post('/api/conversation_attributes', { name: 'kind', data_type: 'list' }, { key: admin });
      expect(noOptions.status).to.equal(400);
      expect(noOptions.body.errors[0]).to.include({ code: 'missing_field', field: 'options' });
      const badName = await t.client.post('/api/conversation_attributes', { name: 'has space', data_type: 'string' }, { key: admin });
      expect(badName.status).to.equal(400);
      const rename = await t.client.put(`/api/conversation_attributes/${category.id}`, { name: 'topic' }, { key: admin });
      expect(rename.status).to.equal(400);
      const byAgent = await t.client.post('/api/conversation_attributes', { name: 'x', data_type: 'string' }, { key: agent });
      expect(byAgent.status).to.equal(403);

      const temp = await define({ name: 'temp', data_type: 'string' });
      const c = await start();
      await ok(setValues(c.id, { temp: 'value' }));
      const inUse = await t.client.delete(`/api/conversation_attributes/${temp.id}`, { key: admin });
      expect(inUse.status).to.equal(409);
      expect(inUse.body.errors[0].code).to.equal('attribute_in_use');
      const archived = await ok(t.client.put(`/api/conversation_attributes/${temp.id}`, { archived: true }, { key: admin }));
      expect(archived.archived).to.equal(true);
      const onArchived = await setValues(c.id, { temp: 'another' });
      expect(onArchived.status).to.equal(400);
      expect(onArchived.body.errors[0]).to.include({ code: 'attribute_archived', field: 'custom_attributes.temp' });
      // An archived attribute keeps its value, which may still be removed.
      expect((await ok(t.client.get(`/api/conversations/${c.id}`, { key: agent }))).custom_attributes).to.deep.equal({ temp: 'value' });
      await ok(setValues(c.id, { temp: null }));
      expect(await ok(t.client.delete(`/api/conversation_attributes/${temp.id}`, { key: admin }))).to.deep.equal({
        type: 'conversation_attribute',
        id: temp.id,
        deleted: true,
      });
      await ok(t.client.get(`/api/conversation_attributes/${temp.id}`, { key: agent }), 404);
    });

    it('a value of the wrong type is a 400 naming the attribute, and nothing is written', async () => {
      const c = await start();
      const before = (await feed('conversation.attributes_updated')).length;
      for (const [name, value] of [
        ['seats', 'twelve'],
        ['seats', 2.5],
        ['amount', 'a lot'],
        ['vip', 'yes'],
        ['renewal', '2027-02-30'],
        ['order_ref', 42],
      ] as const) {
        const r = await setValues(c.id, { [name]: value });
        expect(r.status, `${name} = ${JSON.stringify(value)}`).to.equal(400);
        expect(r.body.errors[0]).to.include({ code: 'invalid_attribute_value', field: `custom_attributes.${name}` });
      }
      const unknown = await setValues(c.id, { nope: 1 });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.errors[0]).to.include({ code: 'unknown_attribute', field: 'custom_attributes.nope' });
      const nested = await setValues(c.id, { order_ref: { a: 1 } });
      expect(nested.status).to.equal(400);
      // One bad value refuses the whole change.
      const mixed = await setValues(c.id, { seats: 3, vip: 'no' });
      expect(mixed.status).to.equal(400);
      expect((await ok(t.client.get(`/api/conversations/${c.id}`, { key: agent }))).custom_attributes).to.deep.equal({});
      expect((await feed('conversation.attributes_updated')).length).to.equal(before);
      await ok(t.client.put(`/api/conversations/00000000-0000-4000-8000-000000000000`, { custom_attributes: { seats: 1 } }, { key: agent }), 404);
    });

    it('a list attribute accepts only its options', async () => {
      const c = await start();
      const r = await setValues(c.id, { category: 'refund' });
      expect(r.status).to.equal(400);
      expect(r.body.errors[0]).to.include({ code: 'invalid_attribute_value', field: 'custom_attributes.category' });
      expect((await setValues(c.id, { category: 'Billing' })).status).to.equal(400);
      const set = await ok(setValues(c.id, { category: 'billing' }));
      expect(set.custom_attributes).to.deep.equal({ category: 'billing' });
      // Options may be added; the value then fits.
      await ok(t.client.put(`/api/conversation_attributes/${category.id}`, { options: ['billing', 'bug', 'question', 'refund'] }, { key: admin }));
      expect((await ok(setValues(c.id, { category: 'refund' }))).custom_attributes).to.deep.equal({ category: 'refund' });
      await ok(setValues(c.id, { category: 'billing' }));
    });

    it('values appear on answers and in events (sealed in the log), and are searched and used by views as custom_attributes.<name>', async () => {
      const a = await start({ priority: 'high' });
      const b = await start();
      const c = await start();
      const setA = await ok(setValues(a.id, { category: 'bug', seats: 12, vip: true, renewal: '2027-03-01', amount: 99.5, order_ref: 'ORD-1234' }));
      expect(setA.custom_attributes).to.deep.equal({ category: 'bug', seats: 12, vip: true, renewal: '2027-03-01', amount: 99.5, order_ref: 'ORD-1234' });
      await ok(setValues(b.id, { category: 'bug', seats: 3, renewal: '2026-12-01' }));
      await ok(setValues(c.id, { category: 'question', order_ref: 'XYZ-9' }));
      expect((await ok(t.client.get(`/api/conversations/${a.id}`, { key: agent }))).custom_attributes.seats).to.equal(12);

      const event = (await feed('conversation.attributes_updated')).filter((e) => e.aggregate_id === a.id).at(-1);
      expect(event.payload.custom_attributes).to.deep.equal(setA.custom_attributes);
      expect(event.payload.changed).to.have.members(['category', 'seats', 'vip', 'renewal', 'amount', 'order_ref']);
      const log = await eventsAsStored(t.service.deps.db, t.testDb.url, t.service.deps.store.kind, owner.workspaceId);
      const stored = log.find((e) => e.id === event.id) as { payload: Record<string, any> } | undefined;
      expect(stored, 'the event in the log').to.not.equal(undefined);
      expect(JSON.stringify(stored!.payload)).not.to.include('ORD-1234');
      expect(stored!.payload.$sealed.f).to.deep.equal(['custom_attributes']);

      const ours = [a.id, b.id, c.id].sort();
      const among = async (q: unknown) => (await search(q)).filter((id) => ours.includes(id));
      expect(await among({ field: 'custom_attributes.category', operator: '=', value: 'bug' })).to.deep.equal([a.id, b.id].sort());
      expect(await among({ field: 'custom_attributes.seats', operator: '>', value: 5 })).to.deep.equal([a.id]);
      expect(await among({ field: 'custom_attributes.renewal', operator: '<', value: '2027-01-01' })).to.deep.equal([b.id]);
      expect(await among({ field: 'custom_attributes.vip', operator: '=', value: true })).to.deep.equal([a.id]);
      expect(await among({ field: 'custom_attributes.order_ref', operator: '^', value: 'ord-' })).to.deep.equal([a.id]);
      expect(await among({ field: 'custom_attributes.vip', operator: '=', value: null })).to.deep.equal([b.id, c.id].sort());
      expect(
        await among({
          operator: 'AND',
          value: [
            { field: 'custom_attributes.category', operator: '=', value: 'bug' },
            { field: 'priority', operator: '=', value: 'high' },
          ],
        }),
      ).to.deep.equal([a.id]);

      const view = await ok(
        t.client.post(
          '/api/views',
          { name: 'Bugs', visibility: 'workspace', query: { field: 'custom_attributes.category', operator: '=', value: 'bug' } },
          { key: admin },
        ),
        201,
      );
      const inView = await ok(t.client.get(`/api/conversations?view_id=${view.id}&per_page=100`, { key: agent }));
      expect(
        inView.data
          .map((x: { id: string }) => x.id)
          .filter((id: string) => ours.includes(id))
          .sort(),
      ).to.deep.equal([a.id, b.id].sort());
      const counts = await ok(t.client.get('/api/conversations/counts', { key: admin }));
      expect(counts.data.find((v: { id: string }) => v.id === view.id).count).to.be.at.least(2);
    });

    it('values are gone with the contact (answers, log) and a rebuild reproduces the same rows', async () => {
      const c = await start();
      await ok(setValues(c.id, { order_ref: 'SECRET-ORDER-77', seats: 4 }));
      await ok(t.client.delete(`/api/contacts/${c.contact_id}`, { key: admin }));
      const after = await ok(t.client.get(`/api/conversations/${c.id}`, { key: agent }));
      expect(after.custom_attributes).to.deep.equal({});
      const event = (await feed('conversation.attributes_updated')).filter((e) => e.aggregate_id === c.id).at(-1);
      expect(event.payload.custom_attributes).to.equal(null);
      expect(await search({ field: 'custom_attributes.order_ref', operator: '=', value: 'SECRET-ORDER-77' })).to.deep.equal([]);
      // No new value afterwards: it would be sealed under a new key that no erasure reaches.
      const late = await setValues(c.id, { order_ref: 'LATE-ORDER' });
      expect(late.status, late.text).to.equal(410);
      expect(late.body.errors[0].code).to.equal('contact_erased');

      const { db, store } = t.service.deps;
      const rows = async () =>
        db('conversations').where({ tenant_id: owner.workspaceId }).orderBy('id').select('id', 'priority', 'custom_attributes', 'updated_at');
      const live = await rows();
      await rebuildReadModels(db, store, t.service.engine);
      expect(await rows()).to.deep.equal(live);
    });
  });
});
