// What third-party contract tools found in request bodies (issue 28, item 6),
// asserted as a client sees it: a write that takes no body refuses one with
// fields instead of dropping them, and an attachment's size has a maximum.
import { expect } from 'chai';
import { documentedRoutes } from '../../src/openapi-document.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import type { Reply } from '../support/http.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

function expectError(r: Reply, status: number, code: string, field?: string): void {
  expect(r.status, r.text).to.equal(status);
  expect(r.body?.type, r.text).to.equal('error.list');
  expect(r.body.request_id).to.equal(r.headers.get('x-request-id'));
  expect(r.body.errors[0].code, r.text).to.equal(code);
  if (field !== undefined) expect(r.body.errors[0].field, r.text).to.equal(field);
}

describe('request bodies the contract refuses', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let ch: { id: string; secret: string };
  const session = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });
  const feedHead = async () => (await t.service.deps.store.head(owner.workspaceId)) as number;

  before(async () => {
    t = await startTestService('contract-bodies');
    owner = await newWorkspace(t);
    ch = await createChannel(t, owner);
  });
  after(async () => t.close());

  describe('writes that take no body', () => {
    it('refuses a webhook_secret sent to rotate-secret with 400 unknown_field, and keeps the secret', async () => {
      const head = await feedHead();
      const r = await t.client.post(`/api/channels/${ch.id}/rotate-secret`, { webhook_secret: 'my-own-secret-0123456789' }, session());
      expectError(r, 400, 'unknown_field', 'webhook_secret');
      expect(await feedHead()).to.equal(head);
      // The bridge's secret still signs: nothing was rotated.
      const post = await postInbound(t, ch.id, ch.secret, inboundBody());
      expect(post.status, post.text).to.equal(201);
    });

    it('still takes no body, and {}', async () => {
      const none = await t.client.post(`/api/channels/${ch.id}/rotate-secret`, undefined, session());
      expect(none.status, none.text).to.equal(200);
      const empty = await t.client.post(`/api/channels/${ch.id}/rotate-secret`, {}, session());
      expect(empty.status, empty.text).to.equal(200);
      expect(empty.body.webhook_secret).to.be.a('string').and.not.equal(none.body.webhook_secret);
      ch.secret = empty.body.webhook_secret;
    });

    it('answers a field on every documented write without a body with 400 unknown_field', async () => {
      const bodiless = documentedRoutes().filter((d) => d.method !== 'get' && !d.body && !d.rawBody && !d.file);
      expect(bodiless.map((d) => `${d.method} ${d.path}`)).to.include.members(['delete /channels/:id', 'post /keys/:id/rotate', 'delete /session']);
      // DELETE /api/session last: were the field ignored, it would sign the owner out.
      bodiless.sort((a, b) => Number(a.path === '/session') - Number(b.path === '/session'));
      const head = await feedHead();
      for (const d of bodiless) {
        const path = `/api${d.path.replace(/:[a-z_]+/g, '6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b')}`;
        const r = await t.client.request(d.method.toUpperCase(), path, { ignored: true }, session());
        expectError(r, 400, 'unknown_field', 'ignored');
      }
      expect(await feedHead()).to.equal(head);
      expect((await t.client.get('/api/me', session())).status).to.equal(200);
    });
  });

  describe('attachments[].size', () => {
    let conversationId: string;
    before(async () => {
      const c = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'Hello', contact: { external_id: 'size-1' } }, session());
      expect(c.status, c.text).to.equal(201);
      conversationId = c.body.id;
    });

    it('answers 1e300 with 400 invalid_field on a reply and on a signed inbound post, and files nothing', async () => {
      const head = await feedHead();
      const reply = await t.client.post(`/api/conversations/${conversationId}/reply`, undefined, {
        ...session(),
        raw: '{"message_type":"comment","body":"big file","attachments":[{"url":"https://files.example/a.bin","size":1e300}]}',
      });
      expectError(reply, 400, 'invalid_field', 'attachments.0.size');
      const inbound = await postInbound(t, ch.id, ch.secret, undefined, {
        raw: JSON.stringify(inboundBody()).replace(/}$/, ',"attachments":[{"url":"https://files.example/a.bin","size":1e300}]}'),
      });
      expectError(inbound, 400, 'invalid_field', 'attachments.0.size');
      expectError(
        await t.client.post(
          `/api/conversations/${conversationId}/reply`,
          { message_type: 'comment', body: 'x', attachments: [{ url: 'https://files.example/b', size: 2 ** 53 }] },
          session(),
        ),
        400,
        'invalid_field',
        'attachments.0.size',
      );
      expect(await feedHead()).to.equal(head);
    });

    it('takes and echoes the largest size, 2^53 - 1', async () => {
      const r = await t.client.post(
        `/api/conversations/${conversationId}/reply`,
        { message_type: 'comment', body: 'huge', attachments: [{ url: 'https://files.example/c', size: 2 ** 53 - 1 }] },
        session(),
      );
      expect(r.status, r.text).to.equal(201);
      expect(r.body.attachments[0].size).to.equal(Number.MAX_SAFE_INTEGER);
    });
  });
});
