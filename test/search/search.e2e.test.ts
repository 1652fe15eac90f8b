// POST /api/conversations/search and /api/contacts/search: what a caller sees.
import { expect } from 'chai';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { ownerLookup } from '../../src/capabilities/capability.js';

type Reply = { status: number; text: string; body: any };

describe('search', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let channelId: string;
  let agentId: string;
  let teamId: string;
  const conv: Record<string, any> = {};

  const ok = async (r: Promise<Reply>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const search = (query: unknown, extra: Record<string, unknown> = {}, k = key) => t.client.post('/api/conversations/search', { query, ...extra }, { key: k });
  const ids = (page: { data: { id: string }[] }) => page.data.map((c) => c.id).sort();
  const bad = async (r: Promise<Reply>, field: string, code = 'invalid_query') => {
    const a = await r;
    expect(a.status, a.text).to.equal(400);
    expect(a.body.type).to.equal('error.list');
    expect(
      a.body.errors.map((e: { field: string }) => e.field),
      a.text,
    ).to.include(field);
    expect(a.body.errors.find((e: { field: string }) => e.field === field).code).to.equal(code);
  };

  before(async () => {
    t = await startTestService('search');
    owner = await newWorkspace(t);
    key = (
      await mintKey(t, owner, [
        'conversations:read',
        'conversations:write',
        'conversations:delete',
        'contacts:read',
        'contacts:write',
        'contacts:delete',
        'members:invite',
        'members:read',
      ])
    ).secret;
    channelId = (await createChannel(t, owner)).id;
    agentId = (await addMember(t, owner, 'agent')).memberId;
    teamId = (await ok(t.client.post('/api/teams', { name: 'Billing' }, { key }), 201)).id;
    const start = async (name: string, body: string, subject: string | null, email: string) =>
      (conv[name] = await ok(
        t.client.post('/api/conversations', { channel_id: channelId, body, ...(subject ? { subject } : {}), contact: { email } }, { key }),
        201,
      ));
    await start('refund', 'I would like a refund for my order', 'Refund please', 'ann@example.com');
    await start('shipping', 'Where is my parcel? It is late.', 'Shipping 100% late', 'bob@example.com');
    await start('card', 'My credit card was charged twice, refund?', null, 'cy@example.com');
    await start('hello', 'hello there', 'Hi_there', 'ann@example.com');
    await ok(t.client.post(`/api/conversations/${conv.card.id}/parts`, { message_type: 'assignment', assignee_id: agentId, team_id: teamId }, { key }), 201);
    await ok(t.client.post(`/api/conversations/${conv.shipping.id}/parts`, { message_type: 'close' }, { key }), 201);
    await ok(
      t.client.post(`/api/conversations/${conv.hello.id}/reply`, { message_type: 'note', body: 'customer asked about a discount voucher' }, { key }),
      201,
    );
  });
  after(async () => t?.close());

  it('finds conversations by words in any part (full-text), combined with other conditions', async () => {
    expect(ids(await ok(search({ field: 'body', operator: '~', value: 'refund' })))).to.deep.equal([conv.refund.id, conv.card.id].sort());
    // a note's words count too
    expect(ids(await ok(search({ field: 'body', operator: '~', value: 'voucher' })))).to.deep.equal([conv.hello.id]);
    // websearch syntax: a phrase, and a word left out
    expect(ids(await ok(search({ field: 'body', operator: '~', value: '"credit card"' })))).to.deep.equal([conv.card.id]);
    expect(ids(await ok(search({ field: 'body', operator: '~', value: 'refund -credit' })))).to.deep.equal([conv.refund.id]);
    // two conditions
    const two = await ok(
      search({
        operator: 'AND',
        value: [
          { field: 'body', operator: '~', value: 'refund' },
          { field: 'assignee_id', operator: '=', value: null },
        ],
      }),
    );
    expect(ids(two)).to.deep.equal([conv.refund.id]);
    expect(two).to.include({ type: 'list' });
    expect(two.pages).to.deep.equal({ type: 'pages', per_page: 20, next: null });
    expect(two.data[0]).to.deep.include({ type: 'conversation', id: conv.refund.id, state: 'open' });
  });

  it('matches nulls, ids, teams, states, subjects (contains / starts / ends, wildcards literal) and instants', async () => {
    const all = [conv.refund.id, conv.shipping.id, conv.card.id, conv.hello.id];
    expect(ids(await ok(search({ field: 'assignee_id', operator: '=', value: null })))).to.deep.equal(all.filter((i) => i !== conv.card.id).sort());
    expect(ids(await ok(search({ field: 'assignee_id', operator: '!=', value: agentId })))).to.have.length(3);
    expect(ids(await ok(search({ field: 'team_id', operator: '=', value: teamId })))).to.deep.equal([conv.card.id]);
    expect(ids(await ok(search({ field: 'state', operator: 'NIN', value: ['open'] })))).to.deep.equal([conv.shipping.id]);
    expect(ids(await ok(search({ field: 'subject', operator: '=', value: null })))).to.deep.equal([conv.card.id]);
    expect(ids(await ok(search({ field: 'subject', operator: '~', value: 'REFUND' })))).to.deep.equal([conv.refund.id]);
    expect(ids(await ok(search({ field: 'subject', operator: '~', value: '100%' })))).to.deep.equal([conv.shipping.id]);
    expect(ids(await ok(search({ field: 'subject', operator: '~', value: '0%' })))).to.deep.equal([conv.shipping.id]);
    expect(ids(await ok(search({ field: 'subject', operator: '~', value: 'i_t' })))).to.deep.equal([conv.hello.id]);
    expect(ids(await ok(search({ field: 'subject', operator: '^', value: 'ship' })))).to.deep.equal([conv.shipping.id]);
    expect(ids(await ok(search({ field: 'subject', operator: '$', value: 'please' })))).to.deep.equal([conv.refund.id]);
    expect(ids(await ok(search({ field: 'contact_id', operator: '=', value: conv.refund.contact_id })))).to.deep.equal([conv.refund.id, conv.hello.id].sort());
    const created = conv.card.created_at as string;
    expect(ids(await ok(search({ field: 'created_at', operator: '<=', value: created })))).to.include(conv.card.id);
    expect((await ok(search({ field: 'created_at', operator: '>', value: '2999-01-01T00:00:00+01:00' }))).data).to.deep.equal([]);
    expect(
      ids(
        await ok(
          search({
            operator: 'OR',
            value: [
              { field: 'state', operator: '=', value: 'closed' },
              {
                operator: 'AND',
                value: [
                  { field: 'team_id', operator: '!=', value: null },
                  { field: 'channel_id', operator: 'IN', value: [channelId] },
                ],
              },
            ],
          }),
        ),
      ),
    ).to.deep.equal([conv.shipping.id, conv.card.id].sort());
  });

  it('filters on tags: has, has not, any of, none of, untagged (conversations and contacts)', async () => {
    const tagKey = (await mintKey(t, owner, ['settings:write', 'conversations:read'])).secret;
    const [vip, bug] = [
      await ok(t.client.post('/api/tags', { name: 'vip' }, { key: tagKey }), 201),
      await ok(t.client.post('/api/tags', { name: 'bug' }, { key: tagKey }), 201),
    ];
    await ok(t.client.post(`/api/conversations/${conv.refund.id}/tags`, { tag_id: vip.id }, { key }));
    await ok(t.client.post(`/api/conversations/${conv.card.id}/tags`, { tag_id: vip.id }, { key }));
    await ok(t.client.post(`/api/conversations/${conv.card.id}/tags`, { tag_id: bug.id }, { key }));
    const within = (q: unknown) => ({
      operator: 'AND',
      value: [
        { field: 'channel_id', operator: '=', value: channelId },
        { field: 'contact_id', operator: 'IN', value: [conv.refund.contact_id, conv.shipping.contact_id, conv.card.contact_id] },
        q,
      ],
    });
    expect(ids(await ok(search({ field: 'tag_ids', operator: '=', value: vip.id })))).to.deep.equal([conv.refund.id, conv.card.id].sort());
    expect(
      ids(
        await ok(
          search({
            operator: 'AND',
            value: [
              { field: 'tag_ids', operator: '=', value: vip.id },
              { field: 'tag_ids', operator: '!=', value: bug.id },
            ],
          }),
        ),
      ),
    ).to.deep.equal([conv.refund.id]);
    expect(ids(await ok(search({ field: 'tag_ids', operator: 'IN', value: [bug.id, '00000000-0000-4000-8000-000000000000'] })))).to.deep.equal([conv.card.id]);
    expect(ids(await ok(search(within({ field: 'tag_ids', operator: 'NIN', value: [vip.id] }))))).to.deep.equal([conv.shipping.id, conv.hello.id].sort());
    expect(ids(await ok(search(within({ field: 'tag_ids', operator: '=', value: null }))))).to.deep.equal([conv.shipping.id, conv.hello.id].sort());
    expect(ids(await ok(search(within({ field: 'tag_ids', operator: '!=', value: null }))))).to.deep.equal([conv.refund.id, conv.card.id].sort());
    const contact = await ok(t.client.post('/api/contacts', { email: 'tagged.search@example.net' }, { key }), 201);
    await ok(t.client.post(`/api/contacts/${contact.id}/tags`, { tag_id: bug.id }, { key }));
    expect(ids(await ok(t.client.post('/api/contacts/search', { query: { field: 'tag_ids', operator: '=', value: bug.id } }, { key })))).to.deep.equal([
      contact.id,
    ]);
  });

  it('pages with the same keyset cursors, sorts and envelope as GET /api/conversations', async () => {
    for (const [sort, order] of [
      ['updated_at', 'desc'],
      ['created_at', 'asc'],
    ] as const) {
      const listed = await ok(t.client.get(`/api/conversations?per_page=150&sort=${sort}&order=${order}`, { key }));
      const seen: string[] = [];
      let next: string | undefined;
      do {
        const page = await ok(
          search({ field: 'channel_id', operator: '=', value: channelId }, { per_page: 3, sort, order, ...(next ? { starting_after: next } : {}) }),
        );
        expect(page.data.length).to.be.at.most(3);
        seen.push(...page.data.map((c: { id: string }) => c.id));
        next = page.pages.next?.starting_after;
      } while (next);
      expect(seen).to.deep.equal(listed.data.map((c: { id: string }) => c.id));
    }
    // a cursor of the GET list works for the search under the same sort, and not under another
    const first = await ok(t.client.get('/api/conversations?per_page=1&sort=created_at&order=asc', { key }));
    const cursor = first.pages.next.starting_after;
    const rest = await ok(
      search({ field: 'state', operator: 'IN', value: ['open', 'closed', 'snoozed'] }, { sort: 'created_at', order: 'asc', starting_after: cursor }),
    );
    expect(rest.data.map((c: { id: string }) => c.id)).to.not.include(first.data[0].id);
    await bad(search({ field: 'state', operator: '=', value: 'open' }, { sort: 'updated_at', starting_after: cursor }), 'starting_after', 'invalid_cursor');
    await bad(search({ field: 'state', operator: '=', value: 'open' }, { starting_after: 'garbage!' }), 'starting_after', 'invalid_cursor');
  });

  it('stops matching a part once its body is redacted (null bodies never match)', async () => {
    const r = await ok(
      t.client.post('/api/conversations', { channel_id: channelId, body: 'my passport number is zebra42', contact: { email: 'dee@example.com' } }, { key }),
      201,
    );
    expect(ids(await ok(search({ field: 'body', operator: '~', value: 'zebra42' })))).to.deep.equal([r.id]);
    await ok(t.client.post(`/api/conversations/${r.id}/parts/${r.parts[0].id}/redact`, undefined, { key }));
    expect((await ok(search({ field: 'body', operator: '~', value: 'zebra42' }))).data).to.deep.equal([]);
  });

  it('probes the full-text index outside row-level security, where Postgres can use it (behind it, @@ filters every part)', async () => {
    const { deps } = t.service;
    // (no tenant condition here, so the full-text index is the only index that could serve it)
    const explain = `EXPLAIN SELECT p.conversation_id FROM conversation_parts p WHERE p.body_tsv @@ websearch_to_tsquery('simple'::regconfig, ?::text)`;
    const plan = (r: { rows: Record<string, unknown>[] }) => r.rows.map((x) => x['QUERY PLAN']).join('\n');
    // the probe leaves the request's tenant scope: its connection is in the owner role
    const setting = await deps.scope.run(owner.workspaceId, () =>
      ownerLookup(deps).raw("SELECT current_setting('app.tenant_id', true) AS t, current_setting('role') AS r", []),
    );
    expect(setting.rows[0]!.r).to.equal('none');
    expect(setting.rows[0]!.t ?? '').to.equal('');
    // where the planner can use the index (seq scans off, so the choice is the index's to make, as on a big table)
    const free = await deps.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      return plan(await trx.raw(explain, ['refund']));
    });
    expect(free).to.include('conversation_parts_body_fts');
    // the same statement inside the tenant's scope, behind row-level security: the index is not used
    const behind = await deps.scope.run(owner.workspaceId, () =>
      deps.db.transaction(async (trx) => {
        await trx.raw('SET LOCAL enable_seqscan = off');
        return plan(await trx.raw(explain, ['refund']));
      }),
    );
    expect(behind).to.not.include('conversation_parts_body_fts');
  });

  it('answers 400 naming the path for a bad field, operator, value or depth, before any query', async () => {
    await bad(
      search({
        operator: 'AND',
        value: [
          { field: 'state', operator: '=', value: 'open' },
          { field: 'state', operator: '~', value: 'op' },
        ],
      }),
      'query.value.1.operator',
    );
    await bad(search({ field: 'colour', operator: '=', value: 'red' }), 'query.field');
    await bad(search({ field: 'assignee_id', operator: '=', value: 'me' }), 'query.value');
    await bad(search({ field: 'updated_at', operator: '>', value: '2026-01-01' }), 'query.value');
    await bad(search({ field: 'state', operator: 'IN', value: ['open', 7] }), 'query.value.1');
    await bad(
      search({ operator: 'AND', value: [{ operator: 'OR', value: [{ operator: 'AND', value: [{ field: 'state', operator: '=', value: 'open' }] }] }] }),
      'query.value.0.value.0',
    );
    await bad(search({ operator: 'AND', value: Array(16).fill({ field: 'state', operator: '=', value: 'open' }) }), 'query.value');
    // the body around the query is checked as every body is
    await bad(t.client.post('/api/conversations/search', {}, { key }), 'query', 'missing_field');
    await bad(search({ field: 'state', operator: '=', value: 'open' }, { per_page: 151 }), 'per_page', 'invalid_field');
    await bad(search({ field: 'state', operator: '=', value: 'open' }, { sort: 'subject' }), 'sort', 'invalid_field');
    await bad(search({ field: 'state', operator: '=', value: 'open' }, { extra: 1 }), 'extra', 'unknown_field');
    await bad(search('state=open'), 'query', 'invalid_field');
  });

  it('refuses a full-text value Postgres cannot parse (33 leading -) with 400 invalid_query, and still takes 16', async () => {
    for (const value of [`${'-'.repeat(33)}a`, `${'- '.repeat(40)}a`, `${'(-'.repeat(40)}a`, `refund ${'-'.repeat(40)}paypal`]) {
      const r = await search({ field: 'body', operator: '~', value });
      expect(r.status, `${value}: ${r.text}`).to.equal(400);
      expect(r.body.errors[0]).to.include({ code: 'invalid_query', field: 'query.value' });
    }
    const fine = await search({ field: 'body', operator: '~', value: `${'-'.repeat(16)}a refund -paypal "credit card"` });
    expect(fine.status, fine.text).to.equal(200);
  });

  it('never answers 500 to hostile input', async () => {
    const hostile: (string | unknown)[] = [
      '{"query":{"field":"custom_attributes.n","operator":">","value":1e400}}',
      '{"query":{"field":"subject","operator":"~","value":"\\u0000"}}',
      '{"query":{"field":"body","operator":"~","value":"\\ud800"}}',
      '{"query":{"field":"body","operator":"~","value":"!!! & | :* <-> ((("}}',
      '{"query":{"field":"created_at","operator":"<","value":"99999-01-01T00:00:00Z"}}',
      '{"query":{"field":"created_at","operator":"<","value":"2026-01-01T00:00:00+99:00"}}',
      '{"query":{"field":"subject","operator":"=","value":{"$gt":""}}}',
      '{"query":{"field":["state"],"operator":"=","value":"open"}}',
      '{"query":{"field":"state","operator":"=","value":"open","__proto__":{"x":1}}}',
      '{"query":{"field":"tag_ids","operator":"IN","value":["00000000-0000-0000-0000-000000000000"]}}',
      '{"query":{"field":"subject","operator":"~","value":"%\\\\_\'; DROP TABLE conversations; --"}}',
      `{"query":${'{"operator":"AND","value":['.repeat(200)}{"field":"state","operator":"=","value":"open"}${']}'.repeat(200)}}`,
      `{"query":{"field":"subject","operator":"IN","value":[${Array(5000).fill('"x"').join(',')}]}}`,
      '{"query":{"field":"state","operator":"=","value":"open"},"per_page":1e400}',
      '{"query":{"field":"state","operator":"=","value":"open"},"per_page":-0.5}',
    ];
    for (const raw of hostile) {
      const r = await t.client.post('/api/conversations/search', undefined, { key, raw: raw as string });
      expect(r.status, `${String(raw).slice(0, 120)} → ${r.text}`).to.be.oneOf([200, 400]);
      if (r.status === 400) expect(r.body.type).to.equal('error.list');
    }
    const c = await t.client.post('/api/contacts/search', undefined, {
      key,
      raw: '{"query":{"field":"custom_attributes.n","operator":"<","value":1.7976931348623157e308}}',
    });
    expect(c.status, c.text).to.equal(200);
  });

  it('keeps workspaces apart, needs conversations:read / contacts:read, and refuses an Idempotency-Key', async () => {
    const other = await newWorkspace(t, 'Other');
    const otherKey = (await mintKey(t, other, ['conversations:read', 'contacts:read'])).secret;
    expect((await ok(search({ field: 'body', operator: '~', value: 'refund' }, {}, otherKey))).data).to.deep.equal([]);
    expect((await ok(search({ field: 'contact_id', operator: '=', value: conv.refund.contact_id }, {}, otherKey))).data).to.deep.equal([]);
    expect(
      (await ok(t.client.post('/api/contacts/search', { query: { field: 'email', operator: '~', value: 'example.com' } }, { key: otherKey }))).data,
    ).to.deep.equal([]);
    const contactsOnly = (await mintKey(t, owner, ['contacts:read'])).secret;
    const denied = await search({ field: 'state', operator: '=', value: 'open' }, {}, contactsOnly);
    expect(denied.status).to.equal(403);
    expect(denied.body.errors[0]).to.include({ code: 'missing_scope' });
    expect(denied.body.errors[0].message).to.include('conversations:read');
    const convOnly = (await mintKey(t, owner, ['conversations:read'])).secret;
    const denied2 = await t.client.post('/api/contacts/search', { query: { field: 'archived', operator: '=', value: false } }, { key: convOnly });
    expect(denied2.status).to.equal(403);
    expect(denied2.body.errors[0].message).to.include('contacts:read');
    expect((await t.client.post('/api/conversations/search', { query: { field: 'state', operator: '=', value: 'open' } })).status).to.equal(401);
    const keyed = await t.client.post(
      '/api/conversations/search',
      { query: { field: 'state', operator: '=', value: 'open' } },
      { key, headers: { 'idempotency-key': 'k1' } },
    );
    expect(keyed.status).to.equal(400);
    expect(keyed.body.errors[0].code).to.equal('idempotency_key_not_allowed');
  });

  it('searches contacts: e-mail ignoring case, name, custom attributes, archived, company; never the erased', async () => {
    const mk = async (body: Record<string, unknown>) => ok(t.client.post('/api/contacts', body, { key }), 201);
    const a = await mk({ email: 'Search.A@Example.org', name: 'Ada Search', external_id: 'ext-a', custom_attributes: { plan: 'pro', seats: 12, vip: true } });
    const b = await mk({ email: 'search.b@example.org', name: 'Bo Search', custom_attributes: { plan: 'free', seats: 2 } });
    const c = await mk({ email: 'search.c@example.org', name: 'Cy Search', custom_attributes: { seats: '40' } });
    const gone = await mk({ email: 'search.gone@example.org', name: 'Gone Search' });
    const company = await ok(t.client.post('/api/companies', { company_id: 'acme-s', name: 'Acme' }, { key }), 201);
    await ok(t.client.post(`/api/contacts/${b.id}/companies`, { company_id: company.id }, { key }));
    await ok(t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key }));
    await ok(t.client.delete(`/api/contacts/${gone.id}`, { key }));
    const cs = async (query: unknown, extra: Record<string, unknown> = {}) =>
      ids(await ok(t.client.post('/api/contacts/search', { query, ...extra }, { key })));
    const within = (q: unknown) => ({ operator: 'AND', value: [{ field: 'email', operator: '$', value: '@example.org' }, q] });
    expect(await cs({ field: 'email', operator: '$', value: '@EXAMPLE.org' })).to.deep.equal([a.id, b.id, c.id].sort());
    expect(await cs({ field: 'email', operator: '=', value: 'SEARCH.A@example.ORG' })).to.deep.equal([a.id]);
    expect(await cs({ field: 'email', operator: 'IN', value: ['search.b@EXAMPLE.org', 'nobody@example.org'] })).to.deep.equal([b.id]);
    expect(await cs({ field: 'name', operator: '^', value: 'ada' })).to.deep.equal([a.id]);
    expect(await cs({ field: 'external_id', operator: '=', value: 'ext-a' })).to.deep.equal([a.id]);
    expect(await cs(within({ field: 'external_id', operator: '=', value: null }))).to.deep.equal([b.id, c.id].sort());
    expect(await cs(within({ field: 'archived', operator: '=', value: false }))).to.deep.equal([a.id, b.id].sort());
    expect(await cs(within({ field: 'archived', operator: '=', value: true }))).to.deep.equal([c.id]);
    expect(await cs({ field: 'company_id', operator: '=', value: company.id })).to.deep.equal([b.id]);
    expect(await cs(within({ field: 'company_id', operator: '=', value: null }))).to.deep.equal([a.id, c.id].sort());
    expect(await cs({ field: 'custom_attributes.plan', operator: '=', value: 'pro' })).to.deep.equal([a.id]);
    expect(await cs(within({ field: 'custom_attributes.plan', operator: '!=', value: 'pro' }))).to.deep.equal([b.id, c.id].sort());
    expect(await cs(within({ field: 'custom_attributes.plan', operator: '=', value: null }))).to.deep.equal([c.id]);
    // numbers compare as numbers; the string "40" is not a number
    expect(await cs({ field: 'custom_attributes.seats', operator: '>', value: 5 })).to.deep.equal([a.id]);
    expect(await cs({ field: 'custom_attributes.seats', operator: 'IN', value: [2, '40'] })).to.deep.equal([b.id, c.id].sort());
    expect(await cs({ field: 'custom_attributes.vip', operator: '=', value: true })).to.deep.equal([a.id]);
    expect(await cs({ field: 'custom_attributes.plan', operator: '~', value: 'RE' })).to.deep.equal([b.id]);
    // the erased contact is in no answer, whatever the query
    expect(await cs({ field: 'name', operator: '~', value: 'gone' })).to.deep.equal([]);
    // answers are whole contacts, with their companies
    const page = await ok(t.client.post('/api/contacts/search', { query: { field: 'company_id', operator: '=', value: company.id } }, { key }));
    expect(page.data[0]).to.deep.include({ type: 'contact', id: b.id, email: 'search.b@example.org' });
    expect(page.data[0].companies.map((x: { id: string }) => x.id)).to.deep.equal([company.id]);
    await bad(t.client.post('/api/contacts/search', { query: { field: 'body', operator: '~', value: 'x' } }, { key }), 'query.field');
    await bad(
      t.client.post('/api/contacts/search', { query: { operator: 'OR', value: [{ field: 'archived', operator: '=', value: 'yes' }] } }, { key }),
      'query.value.0.value',
    );
  });
});
