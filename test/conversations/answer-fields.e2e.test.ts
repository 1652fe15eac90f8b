// A capability adds a field to the conversation's answer from its own module, without a line of conversations
// changing (issue 47, part 1): what sla (`sla`, `statistics`) and csat (`rating`) do, here by a module of this test
// alone, mounted through startService's extraModules hook. Its requests go through fetch, not the recording
// client: the service's OpenAPI document, which every recorded answer is checked against, does not have the field.
import { expect } from 'chai';
import { nullable, str } from '../../src/api/schemas.js';
import { addTo } from '../../src/capabilities/additions.js';
import { defineModule } from '../../src/capabilities/capability.js';
import { conversationFields } from '../../src/capabilities/conversations/index.js';
import { documentedRoutes, openApiDocument } from '../../src/openapi-document.js';
import { capabilityFixture } from '../support/capability-fixture.js';
import type { TestService } from '../support/service.js';

/** The language each conversation was detected in, as a capability of its own would keep it in its table. */
const detected = new Map<string, string>();
/** How many batch reads the field took, and of how many ids each: one per page, never one per conversation. */
const reads: number[] = [];

const languages = defineModule({
  name: 'languages_test',
  events: [],
  adds: [
    addTo(conversationFields, {
      schema: { language: nullable(str({ description: 'The language the conversation was detected in.' })) },
      none: { language: null },
      read: async (_db, _tenantId, ids) => {
        reads.push(ids.length);
        return new Map(ids.flatMap((id) => (detected.has(id) ? [[id, { language: detected.get(id)! }] as const] : [])));
      },
    }),
    // The other form: SQL over the conversation's row, selected with it (no statement of its own).
    addTo(conversationFields, {
      schema: { channel_echo: nullable(str()) },
      none: { channel_echo: null },
      sql: (c) => `${c}.channel_id::text`,
      fromSql: (value) => ({ channel_echo: typeof value === 'string' ? value : null }),
    }),
  ],
});

describe('fields other capabilities add to the conversation answer', function () {
  const fx = capabilityFixture('answer-fields', { scopes: ['conversations:read', 'conversations:write'], extraModules: [languages], env: { WORKERS: 'off' } });
  let t: TestService;
  let key: string;
  let channelId: string;
  before(() => {
    ({ t, key } = fx);
    channelId = fx.channel.id;
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${t.service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };
  const start = async (n: number) => {
    const r = await call('POST', '/api/conversations', { channel_id: channelId, body: `Hello ${n}`, contact: { email: `c${n}@example.com` } });
    expect(r.status).to.equal(201);
    return r.body;
  };

  it("shows the added fields beside sla's and csat's, its empty value where the capability holds nothing", async () => {
    const c = await start(1);
    expect(c).to.include({ language: null, rating: null, channel_echo: channelId });
    expect(c).to.have.property('sla');
    detected.set(c.id, 'fr');
    expect((await call('GET', `/api/conversations/${c.id}`)).body).to.include({ id: c.id, language: 'fr' });
  });

  it('reads it once per page, for every conversation of the page', async () => {
    const a = await start(2);
    const b = await start(3);
    detected.set(b.id, 'de');
    reads.length = 0;
    const page = await call('GET', '/api/conversations?per_page=50');
    expect(page.status).to.equal(200);
    const byId = new Map((page.body.data as { id: string; language: string | null }[]).map((c) => [c.id, c.language]));
    expect(byId.get(a.id)).to.equal(null);
    expect(byId.get(b.id)).to.equal('de');
    expect(page.body.data.every((c: { channel_echo: string }) => c.channel_echo === channelId)).to.equal(true);
    expect(reads).to.deep.equal([page.body.data.length]);
  });

  it('gives its empty value in a past state, which it keeps nothing of', async () => {
    const c = await start(4);
    detected.set(c.id, 'it');
    const history = await call('GET', `/api/conversations/${c.id}/history`);
    const seq = history.body.data[0].seq as number;
    const past = await call('GET', `/api/conversations/${c.id}?as_of_seq=${seq}`);
    expect(past.status).to.equal(200);
    // Neither keeps a past value: both empty, the SQL one too (a past state is not read from the row).
    expect(past.body).to.include({ id: c.id, language: null, channel_echo: null });
  });

  it("is in the OpenAPI document's Conversation schema, beside the others' fields", () => {
    const doc = openApiDocument(documentedRoutes([languages])) as unknown as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const conversation = doc.components.schemas.Conversation!;
    expect(conversation.properties).to.include.keys('language', 'channel_echo', 'rating', 'sla', 'statistics');
    expect(conversation.required).to.include('language');
    // Without the module, the document is the service's own: no such field.
    const own = openApiDocument(documentedRoutes()) as unknown as typeof doc;
    expect(own.components.schemas.Conversation!.properties).to.not.have.property('language');
  });
});
