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
import { eventSchemaDocuments } from '../../src/api/event-schemas.js';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (a: Ajv) => Ajv;
const require = createRequire(import.meta.url);
type Json = Record<string, any>;
const doc = asyncApiDocument() as Json;

describe('AsyncAPI document of the deliveries (unit)', () => {
  it('docs/asyncapi.json is what the catalogue generates (run `npm run docs:asyncapi` after changing an event)', async () => {
    const committed = await readFile(new URL('../../docs/asyncapi.json', import.meta.url), 'utf8');
    expect(committed === `${JSON.stringify(doc, null, 2)}\n`, 'docs/asyncapi.json is stale: run npm run docs:asyncapi').to.equal(true);
  });

  it('is valid AsyncAPI 3.0.0 (the specification\'s JSON Schema), and the check catches a broken document', () => {
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
    expect(Object.keys(doc.channels.channelReplies.messages)).to.deep.equal(['conversation_part.created']);
    for (const served of eventSchemaDocuments(catalogue)) {
      const ref = doc.components.messages[served.id].payload.$ref as string;
      const { $schema: _s, $id: _i, title: _t, ...envelope } = served.schema;
      expect(doc.components.schemas[ref.split('/').pop()!]).to.deep.equal(envelope);
    }
  });

  it('names the signature header, and the retry schedule: 8 attempts, 30 s doubling', () => {
    const headers = doc.components.schemas.DeliveryHeaders;
    expect(headers.required).to.include('x-service-signature');
    expect(headers.properties['x-service-signature'].pattern).to.equal('^[0-9a-f]{64}$');
    expect(headers.properties['x-service-signature'].description).to.match(/HMAC-SHA256 of the raw request body/);
    for (const op of Object.values(doc.operations) as Json[]) {
      expect(op.action).to.equal('receive');
      expect(op['x-retry-policy']).to.deep.include({ attempts: 8, first_delay_seconds: 30, factor: 2, delays_seconds: [30, 60, 120, 240, 480, 960, 1920], last_attempt_after_seconds: 3810 });
      expect(op.bindings.http.method).to.equal('POST');
    }
  });
});
