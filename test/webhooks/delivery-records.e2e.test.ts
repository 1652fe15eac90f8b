// A failed delivery's record keeps the receiver's status and how many bytes it
// answered, never the answer itself: with an allowlisted internal host, a stored
// excerpt turned a webhook into a partial read of internal error pages for
// anyone with settings:read (viewers included).
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../src/platform/clock.js';
import { up as nullExcerpts } from '../../src/platform/db/migrations/033_security_review.js';
import { eventually } from '../support/events.js';
import { addMember, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const MARKER = 'internal-db-password=hunter2';

describe('delivery records keep no answer body', function () {
  let t: TestService;
  let owner: Member;
  let server: http.Server;
  let url = '';
  const as = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });

  before(async () => {
    t = await startTestService('delivery_records', { clock: new ManualClock(new Date()), env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    // An internal page that answers its error with something worth stealing.
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = 500;
        res.end(`<html>Stack trace: ${MARKER} at db.connect()</html>`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  it("a viewer reads the status and the answer's size, never its body; no table keeps it", async () => {
    const ep = await t.client.post('/api/webhooks', { url, event_names: ['member.invited'], description: '' }, as());
    expect(ep.status, ep.text).to.equal(201);
    expect((await t.client.post('/api/members/invites', { email: 'someone@example.com', role: 'agent' }, as())).status).to.equal(201);

    const viewer = await addMember(t, owner, 'viewer');
    // Viewers hold settings:read (a read-only seat mints no keys: its session reads).
    const key = { cookie: viewer.cookie, workspace: viewer.workspaceId };
    const list = await eventually(
      () => t.client.get(`/api/webhooks/${ep.body.id}/deliveries`, key),
      (r) => r.body.data?.[0]?.attempts >= 1,
    );
    const d = list.body.data[0];
    expect(d.last_status).to.equal(500);
    expect(d.last_error).to.match(/^receiver answered 500 \(\d+ bytes, not kept\)$/);
    const detail = await t.client.get(`/api/webhooks/${ep.body.id}/deliveries/${d.id}`, key);
    expect(detail.status).to.equal(200);
    expect(detail.text).to.not.include('hunter2');
    expect(list.text).to.not.include('hunter2');
    expect(detail.body.attempt_log[0].error).to.equal(d.last_error);

    // Nor does any stored copy.
    const rows = await t.testDb.db.raw(
      "SELECT (SELECT string_agg(coalesce(last_error, ''), ' ') FROM webhook_deliveries) || ' ' || (SELECT string_agg(coalesce(error, ''), ' ') FROM webhook_delivery_attempts) AS all_errors",
    );
    expect(rows.rows[0].all_errors).to.not.include('hunter2');
  });

  it('the migration strips excerpts stored by earlier versions', async () => {
    const db = t.testDb.db;
    const any = await db('webhook_deliveries').first('id');
    await db('webhook_deliveries')
      .where({ id: any.id })
      .update({ last_error: `receiver answered 502: ${MARKER}` });
    await db('webhook_delivery_attempts')
      .where({ delivery_id: any.id })
      .update({ error: `receiver answered 502: ${MARKER}` });
    await nullExcerpts(db);
    expect((await db('webhook_deliveries').where({ id: any.id }).first()).last_error).to.equal('receiver answered 502');
    for (const a of await db('webhook_delivery_attempts').where({ delivery_id: any.id })) expect(a.error).to.equal('receiver answered 502');
  });
});
