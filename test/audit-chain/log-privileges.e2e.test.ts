// The event log is append-only by privilege (issue 44, part 5). The service serves
// as one login and migrates as another, the owner (DATABASE_OWNER_URL): connected
// as the serving role, as a stolen password or an SQL injection would be, UPDATE,
// DELETE and TRUNCATE of the log are refused with `permission denied`, also after
// taking the tenant role, and so is turning its row-level security off; the log is
// as it was. The service itself works as before: writes, the change feed, a signed
// checkpoint, the read models of every workspace.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { createChannel } from '../support/channels.js';
import { createTestDb } from '../support/db.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('the event log is append-only for the role that serves requests', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let servingUrl: string;
  const role = `cs_serving_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');

  before(async () => {
    const testDb = await createTestDb('log_privileges', { max: 30, checkEvents: true });
    await testDb.db.raw(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    const u = new URL(testDb.url);
    u.username = role;
    u.password = password;
    servingUrl = u.toString();
    // The attacks rewrite the Postgres log: pinned to the Postgres store in every mode of the run.
    t = await startTestService('log_privileges', { testDb, env: { DATABASE_URL: servingUrl, DATABASE_OWNER_URL: testDb.url, EVENTSTORE_URL: undefined } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'audit:read', 'events:read'])).secret;
  });
  after(async () => {
    const admin = t?.testDb.url;
    await t?.close();
    if (!admin) return;
    const c = new pg.Client({ connectionString: new URL('/postgres', admin).toString() });
    await c.connect();
    await c.query(`DROP ROLE IF EXISTS ${role}`).finally(() => c.end());
  });

  /** Runs `sql` connected as the serving role; the error's SQLSTATE and message, or null when it went through. */
  const asServing = async (sql: string, setup: string[] = []): Promise<{ code: string; message: string } | null> => {
    const c = new pg.Client({ connectionString: servingUrl });
    await c.connect();
    try {
      for (const s of setup) await c.query(s);
      await c.query(sql);
      return null;
    } catch (e) {
      return { code: (e as { code: string }).code, message: (e as Error).message };
    } finally {
      await c.end();
    }
  };
  const logRows = async () =>
    (await t.testDb.db.raw('SELECT seq, hash, payload::text AS payload FROM events WHERE tenant_id = ? ORDER BY seq', [owner.workspaceId])).rows as {
      seq: number;
      hash: string;
      payload: string;
    }[];

  it('serves as that role: writes, the change feed and a signed checkpoint work', async () => {
    const who = await t.service.deps.db.raw('SELECT current_user AS me');
    expect(who.rows[0].me).to.equal(role);
    const ch = await createChannel(t, owner);
    const c = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'Hello', contact: { email: 'a@example.com' } }, { key });
    expect(c.status, c.text).to.equal(201);
    const r = await t.client.post(
      `/api/conversations/${c.body.id}/reply`,
      { message_type: 'comment', body: 'Hi back' },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(r.status, r.text).to.equal(201);
    const feed = await t.client.get('/api/events?per_page=100', { key });
    expect(feed.status, feed.text).to.equal(200);
    expect(feed.body.data.map((e: { type: string }) => e.type)).to.include.members(['conversation.created', 'conversation_part.created']);
    const cp = await t.client.get('/api/audit/checkpoint', { key });
    expect(cp.status, cp.text).to.equal(200);
    expect(cp.body.seq).to.equal(await t.service.deps.store.head(owner.workspaceId));
    expect(t.logs.join('')).to.include(`the event log is append-only for ${role}`);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the log, also under the tenant role, and turning its row-level security off; the log is unchanged', async () => {
    const before = await logRows();
    expect(before.length).to.be.greaterThan(3);
    const tenant = owner.workspaceId;
    const tries = [
      `UPDATE events SET payload = '{"note":"rewritten"}' WHERE tenant_id = '${tenant}' AND seq = 2`,
      `DELETE FROM events WHERE tenant_id = '${tenant}' AND seq = ${before.length}`,
      'TRUNCATE events',
      'ALTER TABLE events DISABLE ROW LEVEL SECURITY',
      'DROP TABLE events',
      `SELECT setval('events_position_seq', 1)`,
    ];
    for (const sql of tries) {
      const refused = await asServing(sql);
      expect(refused, sql).to.not.equal(null);
      expect(refused!.code, `${sql}: ${refused!.message}`).to.be.oneOf(['42501']);
    }
    // Inside a request's transaction the service takes the tenant role: no more rights there.
    const asTenant = ['BEGIN', 'SET LOCAL ROLE conversation_service_tenant', `SELECT set_config('app.tenant_id', '${tenant}', true)`];
    for (const sql of tries.slice(0, 3)) {
      const refused = await asServing(sql, asTenant);
      expect(refused?.code, `${sql} as the tenant role: ${refused?.message}`).to.equal('42501');
    }
    // It cannot take the owner's role either.
    const logOwner = (await t.testDb.db.raw('SELECT current_user AS me')).rows[0].me as string;
    expect((await asServing(`SET ROLE "${logOwner}"`))?.code).to.equal('42501');
    expect(await logRows()).to.deep.equal(before);
    // It still reads every workspace's events (the projectors' and the dispatcher's work crosses tenants).
    expect(await asServing('SELECT count(*) FROM events')).to.equal(null);
  });
});
