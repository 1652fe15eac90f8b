// "No 500 on any client input": what a black-box probe found, asserted as a
// client sees it (status, error envelope, headers, captured logs).
import net from 'node:net';
import { expect } from 'chai';
import { SCOPES } from '../../src/api/scopes.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import type { Reply } from '../support/http.js';

/** The owner's role holds every scope, so a key with all of them works on every route. */
const ALL_SCOPES = [...SCOPES];

function expectError(r: Reply, status: number, code: string, field?: string): void {
  expect(r.status, r.text).to.equal(status);
  expect(r.body, r.text).to.be.an('object');
  expect(r.body.type).to.equal('error.list');
  expect(r.body.request_id).to.be.a('string').and.equal(r.headers.get('x-request-id'));
  expect(r.body.errors).to.be.an('array').that.is.not.empty;
  for (const e of r.body.errors) {
    expect(e.code).to.be.a('string');
    expect(e.message).to.be.a('string');
  }
  expect(r.body.errors[0].code, r.text).to.equal(code);
  if (field !== undefined) expect(r.body.errors[0].field, r.text).to.equal(field);
}

const cursorOf = (c: Record<string, unknown>) => Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');

describe('edge hardening: no 500 on client input', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let ch: { id: string; secret: string };
  let endpointId: string;
  const session = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });

  before(async () => {
    // 127.0.0.9 is allowed so a webhook endpoint can exist; its event never happens, so nothing is sent.
    t = await startTestService('hardening', { env: { WEBHOOK_ALLOWLIST: '127.0.0.9' } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ALL_SCOPES)).secret;
    ch = await createChannel(t, owner);
    const ep = await t.client.post('/api/webhooks', { url: 'http://127.0.0.9:9/hook', event_names: ['webhook_endpoint.deleted'] }, { key });
    expect(ep.status, ep.text).to.equal(201);
    endpointId = ep.body.id;
  });
  after(async () => t.close());

  const feedHead = async () => (await t.service.deps.store.head(owner.workspaceId)) as number;

  describe('text Postgres cannot store is a 400 at the edge', () => {
    const hostile = { nul: 'a\u0000b', high: 'a\ud800b', low: '\udc00' };

    for (const [name, bad] of Object.entries(hostile)) {
      it(`answers ${name} in a body string with 400 invalid_text naming the field, and changes nothing`, async () => {
        const head = await feedHead();
        const r = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'hello', contact: { external_id: 'x-1', name: bad } }, { key });
        expectError(r, 400, 'invalid_text', 'contact.name');
        const r2 = await t.client.post(
          '/api/channels',
          { kind: 'api', name: bad, default_team_id: null, webhook_secret: 'another-secret-0123456789' },
          { key },
        );
        expectError(r2, 400, 'invalid_text', 'name');
        const r3 = await t.client.post(
          `/api/conversations/00000000-0000-4000-8000-000000000000/reply`,
          { body: 'x', message_type: 'note', attachments: [{ url: 'https://a.example/x', name: bad }] },
          { key },
        );
        expectError(r3, 400, 'invalid_text', 'attachments.0.name');
        expect(await feedHead()).to.equal(head);
      });
    }

    it('answers a NUL in an object key with 400 invalid_text', async () => {
      const r = await t.client.post(
        '/api/conversations',
        { channel_id: ch.id, body: 'hello', contact: { external_id: 'x-1', ['na\u0000me']: 'Ada' } },
        { key },
      );
      expectError(r, 400, 'invalid_text', 'contact');
      const top = await t.client.request('PUT', `/api/webhooks/${endpointId}`, { ['\ud800']: 1 }, { key });
      expectError(top, 400, 'invalid_text');
    });

    it('answers it on the public POST /api/session', async () => {
      expectError(await t.client.post('/api/session', { email: 'a\u0000@example.com', password: 'whatever' }), 400, 'invalid_text', 'email');
      expectError(await t.client.post('/api/session', { email: 'a@example.com', password: '\ud800' }), 400, 'invalid_text', 'password');
    });

    it('answers it on the public POST /api/invites/accept', async () => {
      const inv = await t.client.post('/api/members/invites', { email: `nul-${Date.now()}@example.com`, role: 'agent' }, session());
      expect(inv.status, inv.text).to.equal(201);
      const head = await feedHead();
      expectError(
        await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'Bad\u0000Name', password: 'a good password' }),
        400,
        'invalid_text',
        'name',
      );
      expectError(
        await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'Bad\udc00Name', password: 'a good password' }),
        400,
        'invalid_text',
        'name',
      );
      expect(await feedHead()).to.equal(head);
      // the invite is still usable
      const ok = await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'Good Name', password: 'a good password' });
      expect(ok.status, ok.text).to.equal(202);
    });

    it('answers it on the signed inbound route after the signature verifies; unsigned callers still get the empty 401', async () => {
      const head = await feedHead();
      const bad = inboundBody({ contact: { external_id: 'wa:nul', name: 'Gr\u0000ace' } });
      expectError(await postInbound(t, ch.id, ch.secret, bad), 400, 'invalid_text', 'contact.name');
      expectError(await postInbound(t, ch.id, ch.secret, inboundBody({ content: '\ud800' })), 400, 'invalid_text', 'content');
      const unsigned = await postInbound(t, ch.id, ch.secret, bad, { signature: '0'.repeat(64) });
      expect(unsigned.status).to.equal(401);
      expect(unsigned.text).to.equal('');
      expect(await feedHead()).to.equal(head);
    });

    it('answers it in a query-string value', async () => {
      expectError(await t.client.get('/api/conversations?workspace=%00', { key }), 400, 'invalid_text', 'workspace');
      expectError(await t.client.get('/api/members?role=agent&workspace=a%00b', { key }), 400, 'invalid_text', 'workspace');
    });

    it('answers it in a path parameter', async () => {
      expectError(await t.client.get('/api/conversations/%00', { key }), 400, 'invalid_text', 'id');
      expectError(await t.client.put('/api/members/a%00b', { role: 'agent' }, { key }), 400, 'invalid_text', 'id');
      expectError(await t.client.post(`/api/channels/${ch.id}/deliveries/%00/x`, {}, { key }), 404, 'route_not_found');
    });

    it('answers nesting deeper than the edge allows with a 400, not a stack overflow', async () => {
      const deep = '['.repeat(5000) + ']'.repeat(5000);
      const r = await t.client.request('PUT', `/api/webhooks/${endpointId}`, undefined, { key, raw: `{"secret":${deep}}` });
      expectError(r, 400, 'nesting_too_deep');
      const deepInbound = `{"external_id":"t","contact":{"external_id":"c"},"content":"x","attachments":${deep}}`;
      expectError(await postInbound(t, ch.id, ch.secret, undefined, { raw: deepInbound }), 400, 'nesting_too_deep');
    });
  });

  describe('date-times the service cannot read', () => {
    it('answers a leap second or other RFC 3339 instant JavaScript cannot parse with 400 invalid_field', async () => {
      const conv = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'snooze me', contact: { external_id: 'leap-1' } }, { key });
      expect(conv.status, conv.text).to.equal(201);
      const head = await feedHead();
      for (const when of ['2035-06-30T23:59:60Z', '2035-12-31T18:29:60-05:30']) {
        expectError(
          await t.client.post(`/api/conversations/${conv.body.id}/parts`, { message_type: 'snoozed', snoozed_until: when }, { key }),
          400,
          'invalid_field',
          'snoozed_until',
        );
        expectError(await postInbound(t, ch.id, ch.secret, inboundBody({ at: when })), 400, 'invalid_field', 'at');
      }
      expect(await feedHead()).to.equal(head);
      const ok = await t.client.post(`/api/conversations/${conv.body.id}/parts`, { message_type: 'snoozed', snoozed_until: '2035-06-30t23:59:59z' }, { key });
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.body.snoozed_until).to.equal('2035-06-30T23:59:59.000Z');
    });
  });

  describe('numbers outside a column range', () => {
    for (const v of ['99999999999999999999', '1e400', '9223372036854775808', '9007199254740992']) {
      it(`answers after_seq=${v} with 400 invalid_field`, async () => {
        expectError(await t.client.get(`/api/events?after_seq=${v}`, { key }), 400, 'invalid_field', 'after_seq');
      });
    }

    it('answers per_page far out of range with 400 invalid_field', async () => {
      for (const v of ['99999999999999999999', '1e400', '9223372036854775808', '-1', '0']) {
        expectError(await t.client.get(`/api/events?per_page=${v}`, { key }), 400, 'invalid_field', 'per_page');
      }
    });

    it('still accepts the largest safe after_seq', async () => {
      const r = await t.client.get(`/api/events?after_seq=${Number.MAX_SAFE_INTEGER}`, { key });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.data).to.deep.equal([]);
    });
  });

  describe('cursors are fully validated before any query', () => {
    const uuid = '00000000-0000-4000-8000-000000000001';
    const badTimestamps: unknown[] = [
      '1',
      '2024',
      '-271821-04-20T00:00:00Z',
      "2024-01-01T00:00:00Z'; DROP TABLE members; --",
      '2024-01-01 00:00:00',
      '2024-02-30T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '10000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '2024-01-01T00:00:00.1234567Z',
      '2024-01-01T25:00:00Z',
      'infinity',
      'epoch',
      'now',
      '',
      5,
      null,
      true,
    ];
    const badNumbers: unknown[] = [1.5, 1e300, -1e300, 2 ** 63, -1, 2 ** 53, '5', null, 'NaN', [], {}];
    // every list route, with each sort it offers and that sort key's kind
    const lists = (): { path: string; sorts: Record<string, 'timestamp' | 'number'>; orders: ('asc' | 'desc')[] }[] => [
      { path: '/api/members', sorts: { joined_at: 'timestamp' }, orders: ['asc', 'desc'] },
      { path: '/api/keys', sorts: { created_at: 'timestamp' }, orders: ['asc', 'desc'] },
      { path: '/api/channels', sorts: { created_at: 'timestamp', updated_at: 'timestamp' }, orders: ['asc', 'desc'] },
      { path: '/api/webhooks', sorts: { created_at: 'timestamp' }, orders: ['asc', 'desc'] },
      { path: `/api/webhooks/${endpointId}/deliveries`, sorts: { created_at: 'number', seq: 'number' }, orders: ['asc', 'desc'] },
      { path: `/api/channels/${ch.id}/deliveries`, sorts: { created_at: 'number', seq: 'number' }, orders: ['asc', 'desc'] },
      { path: '/api/conversations', sorts: { created_at: 'timestamp', updated_at: 'timestamp' }, orders: ['asc', 'desc'] },
      { path: '/api/events', sorts: { seq: 'number' }, orders: ['asc'] },
    ];

    it('answers a crafted sort key or id with 400 invalid_cursor on every list route', async () => {
      const failures: string[] = [];
      let tries = 0;
      for (const list of lists()) {
        for (const [sort, kind] of Object.entries(list.sorts)) {
          for (const order of list.orders) {
            const keys = kind === 'timestamp' ? badTimestamps : badNumbers;
            const good = kind === 'timestamp' ? '2024-01-01T00:00:00.000Z' : 1;
            const crafted = [
              ...keys.map((k) => ({ v: 1, sort, order, key: k, id: uuid })),
              { v: 1, sort, order, key: good, id: 'not-a-uuid' },
              { v: 1, sort, order, key: good, id: "1'; --" },
              { v: 1, sort, order, key: good, id: 42 },
              { v: 1, sort, order, key: good },
            ];
            for (const c of crafted) {
              tries++;
              const r = await t.client.get(`${list.path}?sort=${sort}&order=${order}&starting_after=${cursorOf(c)}`, { key });
              const ok =
                r.status === 400 &&
                r.body?.type === 'error.list' &&
                r.body.errors?.[0]?.code === 'invalid_cursor' &&
                r.body.errors[0].field === 'starting_after';
              if (!ok) failures.push(`${list.path} ${JSON.stringify(c)} -> ${r.status} ${r.text.slice(0, 120)}`);
            }
          }
        }
      }
      expect(tries).to.be.greaterThan(300);
      expect(failures, failures.join('\n')).to.deep.equal([]);
    });

    it('still takes a well-formed cursor with the largest keys Postgres accepts', async () => {
      for (const list of lists()) {
        for (const [sort, kind] of Object.entries(list.sorts)) {
          const order = list.orders[0]!;
          const keyValue = kind === 'timestamp' ? '9999-12-31T23:59:59.999999Z' : Number.MAX_SAFE_INTEGER;
          const r = await t.client.get(`${list.path}?sort=${sort}&order=${order}&starting_after=${cursorOf({ v: 1, sort, order, key: keyValue, id: uuid })}`, {
            key,
          });
          expect(r.status, `${list.path} ${r.text}`).to.equal(200);
        }
      }
    });
  });

  describe('a session cookie that does not decode', () => {
    it('is no session: 401 on /api/me, 204 on DELETE /api/session, and no error logged', async () => {
      const before = t.logs.length;
      const me = await t.client.get('/api/me', { cookie: 'svc_session=%E0%A4%A', workspace: owner.workspaceId });
      expect(me.status, me.text).to.equal(401);
      expect(me.body.type).to.equal('error.list');
      const out = await t.client.delete('/api/session', { cookie: 'svc_session=%E0%A4%A' });
      expect(out.status, out.text).to.equal(204);
      const bad = await t.client.get('/api/me', { cookie: 'other=1; svc_session=%zz', workspace: owner.workspaceId });
      expect(bad.status, bad.text).to.equal(401);
      const lines = t.logs.slice(before).map((l) => JSON.parse(l) as { level: number });
      expect(lines.filter((l) => l.level >= 50)).to.deep.equal([]);
    });
  });

  describe('logs carry no values from the database', () => {
    const MARKER = 'MARKER-7f3a9c-secret-value';

    const errorLines = (from: number) => t.logs.slice(from).filter((l) => (JSON.parse(l) as { level: number }).level >= 50);

    it('drops the SQL with its bindings that knex puts in the message', async () => {
      const db = t.testDb.db;
      const before = t.logs.length;
      await db.raw('ALTER TABLE contacts RENAME TO contacts_away');
      let r: Reply;
      try {
        r = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'hello', contact: { external_id: MARKER, name: MARKER } }, { key });
      } finally {
        await db.raw('ALTER TABLE contacts_away RENAME TO contacts');
      }
      expectError(r, 500, 'internal_error');
      const lines = errorLines(before);
      expect(lines).to.have.length(1);
      // still useful: the SQLSTATE and where the error came from
      expect(JSON.parse(lines[0]!).err).to.include({ code: '42P01' });
      for (const l of t.logs.slice(before)) expect(l).to.not.include(MARKER);
    });

    it('drops the detail, hint, context and message of a database error that carry values', async () => {
      const db = t.testDb.db;
      await db.raw(`
        CREATE FUNCTION test_leaky() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'leaky %', NEW.name USING DETAIL = 'detail ' || NEW.name, HINT = 'hint ' || NEW.name, ERRCODE = '23514';
        END $$;
        CREATE TRIGGER test_leaky BEFORE INSERT ON channels FOR EACH ROW WHEN (NEW.name LIKE 'MARKER%') EXECUTE FUNCTION test_leaky();
      `);
      const before = t.logs.length;
      let r: Reply;
      try {
        r = await t.client.post('/api/channels', { kind: 'api', name: MARKER, default_team_id: null, webhook_secret: 'a-secret-0123456789abcdef' }, { key });
      } finally {
        await db.raw('DROP TRIGGER test_leaky ON channels; DROP FUNCTION test_leaky()');
      }
      expectError(r, 500, 'internal_error');
      const lines = errorLines(before);
      expect(lines).to.have.length(1);
      expect(JSON.parse(lines[0]!).err).to.include({ code: '23514' });
      for (const l of t.logs.slice(before)) expect(l).to.not.include(MARKER);
    });
  });

  describe('bodies that are not a JSON object', () => {
    for (const raw of ['"x"', 'null', '42', 'true', '[]', '[{"email":"a@b.c"}]']) {
      it(`answers ${raw} with 400 invalid_body`, async () => {
        expectError(await t.client.post('/api/session', undefined, { raw }), 400, 'invalid_body');
        expectError(await t.client.post('/api/channels', undefined, { raw, key }), 400, 'invalid_body');
      });
    }

    it('keeps answering broken JSON with 400 invalid_json', async () => {
      expectError(await t.client.post('/api/session', undefined, { raw: '{"email":' }), 400, 'invalid_json');
    });

    it('answers a non-JSON content type with 415 unsupported_media_type, and changes nothing', async () => {
      const head = await feedHead();
      const json = JSON.stringify({ kind: 'api', name: 'text plain', default_team_id: null, webhook_secret: 'a-secret-0123456789abcdef' });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
        expectError(await t.client.post('/api/channels', undefined, { raw: json, key, headers: { 'content-type': type } }), 415, 'unsupported_media_type');
      }
      expectError(await t.client.post('/api/session', undefined, { raw: 'email=a', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
      expect(await feedHead()).to.equal(head);
    });

    it('takes application/*+json as JSON', async () => {
      const r = await t.client.post('/api/session', undefined, {
        raw: JSON.stringify({ email: 'nobody@example.com', password: 'x' }),
        headers: { 'content-type': 'application/vnd.api+json' },
      });
      expectError(r, 401, 'invalid_credentials');
    });

    it('keeps body-less writes working', async () => {
      const fresh = await addMember(t, owner, 'admin');
      const k = await mintKey(t, fresh, ['conversations:read']);
      const rot = await t.client.post(`/api/keys/${k.id}/rotate`, undefined, { cookie: fresh.cookie, workspace: fresh.workspaceId });
      expect(rot.status, rot.text).to.equal(200);
      const sec = await t.client.post(`/api/channels/${ch.id}/rotate-secret`, undefined, { key });
      expect(sec.status, sec.text).to.equal(200);
      ch.secret = sec.body.webhook_secret;
      const del = await t.client.delete(`/api/keys/${k.id}`, { key });
      expect(del.status, del.text).to.equal(200);
      const emptyJson = await t.client.post(`/api/channels/${ch.id}/rotate-secret`, undefined, { key, raw: '', headers: { 'content-type': 'text/plain' } });
      expect(emptyJson.status, emptyJson.text).to.equal(200);
      ch.secret = emptyJson.body.webhook_secret;
    });

    it('leaves the inbound rule alone: a non-JSON content type is the empty 401', async () => {
      const r = await postInbound(t, ch.id, ch.secret, inboundBody(), { contentType: 'text/plain' });
      expect(r.status).to.equal(401);
      expect(r.text).to.equal('');
    });
  });

  describe('Idempotency-Key', () => {
    it('allows an inner space, and replays under it', async () => {
      const body = { channel_id: ch.id, body: 'spaced key', contact: { external_id: 'spaced-1' } };
      const first = await t.client.post('/api/conversations', body, { key, headers: { 'idempotency-key': 'reply a b' } });
      expect(first.status, first.text).to.equal(201);
      const again = await t.client.post('/api/conversations', body, { key, headers: { 'idempotency-key': 'reply a b' } });
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.text).to.equal(first.text);
    });

    it('still refuses control characters and non-ASCII', async () => {
      const body = { channel_id: ch.id, body: 'x', contact: { external_id: 'spaced-2' } };
      for (const k of ['a\tb', 'caf\u00e9']) {
        expectError(await t.client.post('/api/conversations', body, { key, headers: { 'idempotency-key': k } }), 400, 'invalid_idempotency_key');
      }
    });
  });

  it('answers every /api request with Cache-Control: no-store and X-Content-Type-Options: nosniff: a key shown once, an error, a 404, a 401', async () => {
    const minted = await t.client.post('/api/keys', { name: 'shown once', scopes: ['conversations:read'] }, session());
    expect(minted.status, minted.text).to.equal(201);
    const answers = [
      minted,
      await t.client.get('/api/conversations', { key }),
      await t.client.get('/api/conversations?per_page=0', { key }),
      await t.client.get('/api/no-such-route', { key }),
      await t.client.get('/api/me'),
      await postInbound(t, ch.id, 'not the secret', inboundBody()),
    ];
    for (const r of answers) {
      expect(r.headers.get('cache-control'), `${r.status} ${r.text.slice(0, 80)}`).to.equal('no-store');
      expect(r.headers.get('x-content-type-options'), `${r.status}`).to.equal('nosniff');
    }
    expect(answers.map((r) => r.status)).to.deep.equal([201, 200, 400, 404, 401, 401]);
  });
});

describe('edge hardening: HTTP timeouts', function () {
  this.timeout(60_000);
  let t: TestService;
  before(async () => (t = await startTestService('timeouts', { env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '5000' } })));
  after(async () => t.close());

  it('closes a slowloris connection that never finishes its headers', async () => {
    const { port } = new URL(t.service.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (d) => (received += d.toString('latin1')));
    const closed = new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 15_000).unref();
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write('a');
    }, 200);
    try {
      expect(await closed, 'the server kept the slow connection open').to.equal(true);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
    // Node answers 408 before closing; never a 200 for headers that never ended
    expect(received).to.not.match(/^HTTP\/1\.1 200/);
  });

  it('answers what Node cannot parse with the error envelope too: headers too large, broken HTTP', async () => {
    const big = await t.client.get(`/api/me?x=${'a'.repeat(20_000)}`);
    expect(big.status).to.equal(431);
    expect(big.body).to.include({ type: 'error.list' });
    expect(big.body.request_id).to.be.a('string').and.equal(big.headers.get('x-request-id'));
    expect(big.body.errors[0].code).to.equal('headers_too_large');

    const { port } = new URL(t.service.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString('utf8')));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('close', () => resolve());
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nNot a header line\r\n\r\n');
    });
    expect(received).to.match(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
    expect(body.type).to.equal('error.list');
    expect(body.errors[0].code).to.equal('bad_request');
  });

  it('still serves a normal request', async () => {
    expect((await t.client.get('/healthz')).status).to.equal(200);
  });
});
