// docs/asyncapi.json: generated from the event catalogue, the sender's headers
// and the retry policy; valid AsyncAPI 3.0 (the official JSON Schema, from
// @asyncapi/specs); the same envelope schemas as GET /api/events/schemas.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { asyncApiDocument } from '../../src/asyncapi-document.js';
import { eventCatalogue } from '../../src/capabilities/index.js';
import { eventSchemaDocuments } from '../../src/eventstore/event-schemas.js';
import { webhookRoutingRules } from '../../src/capabilities/webhooks/index.js';
import { targetsFor, type TenantView } from '../../src/dispatch/routing.js';
import type { StoredEvent } from '../../src/eventstore/envelope.js';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (a: Ajv) => Ajv;
const require = createRequire(import.meta.url);
type Json = Record<string, any>;
const doc = asyncApiDocument() as Json;

describe('AsyncAPI document of the deliveries (unit)', () => {
  it('docs/asyncapi.json is what the catalogue generates (run `npm run docs:asyncapi` after changing an event)', async () => {
    const committed = await readFile(new URL('../../docs/asyncapi.json', import.meta.url), 'utf8');
    expect(committed === `${JSON.stringify(doc, null, 2)}\n`, 'docs/asyncapi.json is stale: run npm run docs:asyncapi').to.equal(true);
  });

  it("is valid AsyncAPI 3.0.0 (the specification's JSON Schema), and the check catches a broken document", () => {
    const spec = require('@asyncapi/specs/schemas/3.0.0-without-$id.json') as Json;
    const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(spec);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).to.equal(true);
    const broken = JSON.parse(JSON.stringify(doc)) as Json;
    broken.operations.receiveEvent.action = 'deliver';
    expect(validate(broken)).to.equal(false);
  });

  it('has a message per event type, its payload the envelope served by GET /api/events/schemas', () => {
    const catalogue = eventCatalogue();
    expect(Object.keys(doc.components.messages)).to.deep.equal(catalogue.types());
    expect(Object.keys(doc.channels.webhookEndpoint.messages)).to.deep.equal(catalogue.types());
    for (const served of eventSchemaDocuments(catalogue)) {
      const ref = doc.components.messages[served.id].payload.$ref as string;
      const { $schema: _s, $id: _i, title: _t, ...envelope } = served.schema;
      expect(doc.components.schemas[ref.split('/').pop()!]).to.deep.equal(envelope);
    }
  });

  it("lists for an api channel's webhook_url exactly the event types the dispatcher routes to it", () => {
    // Each event type of the catalogue, with a payload that would reach a channel if its type ever does
    // (a teammate's comment in channel C), routed through a view where C has a webhook_url.
    const C = '22222222-2222-4222-8222-222222222222';
    const view: TenantView = {
      endpoints: new Map(),
      channels: new Map([[C, { tenantId: 't', channelId: C, webhookUrl: 'https://bridge.example/hook', enabled: true }]]),
    };
    const routed = eventCatalogue()
      .types()
      .filter((type) => {
        const payload = { conversation_id: 'c', part_id: 'p', channel_id: C, part_type: 'comment', author: { type: 'member', id: 'm' }, external_id: null };
        const e = {
          tenant_id: 't',
          seq: 1,
          type,
          aggregate_type: type.split('.')[0]!,
          aggregate_id: 'a',
          payload,
          created_at: '2026-01-01T00:00:00.000Z',
          id: 'i',
          metadata: {},
          position: '1',
        } as StoredEvent;
        return targetsFor(e, view, webhookRoutingRules).some((t) => t.kind === 'channel');
      });
    expect(routed).to.include.members(['conversation_part.created', 'conversation_part.unsent']);
    expect(Object.keys(doc.channels.channelReplies.messages)).to.have.members(routed);
    expect(doc.operations.receiveChannelReply.messages.map((m: Json) => m.$ref.split('/').pop())).to.have.members(routed);
    for (const type of routed) expect(doc.channels.channelReplies.description).to.include(`\`${type}\``);
  });

  it('names the signature header, and the retry schedule: 8 attempts, 30 s doubling', () => {
    const headers = doc.components.schemas.DeliveryHeaders;
    expect(headers.required).to.include('x-service-signature');
    expect(headers.properties['x-service-signature'].pattern).to.equal('^[0-9a-f]{64}$');
    expect(headers.properties['x-service-signature'].description).to.match(/HMAC-SHA256 of the raw request body/);
    for (const op of Object.values(doc.operations) as Json[]) {
      expect(op.action).to.equal('receive');
      expect(op['x-retry-policy']).to.deep.include({
        attempts: 8,
        first_delay_seconds: 30,
        factor: 2,
        delays_seconds: [30, 60, 120, 240, 480, 960, 1920],
        last_attempt_after_seconds: 3810,
      });
      expect(op.bindings.http.method).to.equal('POST');
    }
  });
});
