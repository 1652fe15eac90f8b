// GET /api/events/schemas: one JSON Schema per event type, and every envelope a
// real receiver gets validates against them, the way docs/webhooks.md shows.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { eventCatalogue } from '../../src/capabilities/index.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { Receiver } from './receiver.js';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (a: Ajv2020) => Ajv2020;

describe('event schemas for receivers (GET /api/events/schemas)', function () {
  let t: TestService;
  let owner: Member;
  let key: string;
  let receiver: Receiver;

  before(async () => {
    t = await startTestService('event_schemas', { env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['events:read', 'conversations:read', 'conversations:write', 'settings:read', 'settings:write'])).secret;
    receiver = await new Receiver().start();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('answers one 2020-12 JSON Schema per event type of the catalogue, for events:read only', async () => {
    const r = await t.client.get('/api/events/schemas', { key });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.type).to.equal('list');
    expect(r.body.data.map((s: { id: string }) => s.id)).to.deep.equal(eventCatalogue().types());
    for (const s of r.body.data) {
      expect(s.type).to.equal('event_schema');
      expect(s.schema.$schema).to.equal('https://json-schema.org/draft/2020-12/schema');
      expect(s.schema.$id).to.equal(`urn:conversation-service:event:${s.id}`);
      expect(s.schema.properties.type).to.deep.equal({ type: 'string', const: s.id });
      expect(s.schema.required).to.include.members(['tenant_id', 'seq', 'type', 'aggregate_type', 'aggregate_id', 'payload', 'created_at']);
    }
    const noScope = (await mintKey(t, owner, ['conversations:read'], 'no events')).secret;
    const refused = await t.client.get('/api/events/schemas', { key: noScope });
    expect(refused.status).to.equal(403);
    expect(refused.body.errors[0].code).to.equal('missing_scope');
  });

  it('validates every envelope a receiver gets (signed, as docs/webhooks.md shows), and refuses a doctored one', async () => {
    const ep = await t.client.post('/api/webhooks', { url: receiver.url, event_names: [] }, { key });
    expect(ep.status, ep.text).to.equal(201);
    const channel = await createChannel(t, owner);
    const conv = await t.client.post(
      '/api/conversations',
      { channel_id: channel.id, body: 'Hello', contact: { external_id: 'schemas-1', name: 'Grace', email: 'grace@example.com' } },
      { key },
    );
    expect(conv.status, conv.text).to.equal(201);
    await t.client.post(`/api/conversations/${conv.body.id}/reply`, { body: 'On its way.', message_type: 'comment' }, { key });
    await t.client.post(
      `/api/conversations/${conv.body.id}/parts`,
      { message_type: 'snoozed', snoozed_until: new Date(Date.now() + 3600_000).toISOString() },
      { key },
    );
    await t.client.put(`/api/channels/${channel.id}`, { name: 'Renamed bridge' }, { key });
    // channel.created, contact.created, conversation.created, 3 × conversation_part.created, channel.updated
    const got = await receiver.waitFor(7);

    // as docs/webhooks.md: load the schemas, compile one validator per type
    const ajv = addFormats(new Ajv2020({ allErrors: true }));
    const res = await fetch(`${t.service.url}/api/events/schemas`, { headers: { authorization: `Bearer ${key}` } });
    const validators = new Map<string, ValidateFunction>(
      ((await res.json()) as { data: { id: string; schema: object }[] }).data.map((s) => [s.id, ajv.compile(s.schema)]),
    );
    const problems = (event: { type: string }) => {
      const validate = validators.get(event.type);
      if (!validate) return `unknown event type ${event.type}`;
      return validate(event) ? null : ajv.errorsText(validate.errors);
    };

    const secret = ep.body.secret as string;
    const types = new Set<string>();
    for (const d of got) {
      expect(d.headers['x-service-signature'])
        .to.match(/^[0-9a-f]{64}$/)
        .and.equal(createHmac('sha256', secret).update(d.raw).digest('hex'));
      const event = JSON.parse(d.raw.toString('utf8'));
      expect(problems(event), d.raw.toString('utf8')).to.equal(null);
      types.add(event.type);
    }
    expect([...types]).to.include.members(['channel.created', 'contact.created', 'conversation.created', 'conversation_part.created', 'channel.updated']);

    const event = JSON.parse(got.find((d) => JSON.parse(d.raw.toString('utf8')).type === 'conversation.created')!.raw.toString('utf8'));
    expect(problems({ ...event, payload: { ...event.payload, stray: 1 } })).to.match(/must NOT have additional properties/);
    expect(problems({ ...event, seq: 'one' })).to.match(/must be integer/);
    expect(problems({ ...event, type: 'conversation.exploded' })).to.match(/unknown event type/);
  });
});
