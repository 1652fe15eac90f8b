// Self-service password resets through a real SMTP relay (a smtp-server started
// here): the request is answered identically for known and unknown addresses, after
// the same writes, the link reaches the account's mailbox (never the answer), works
// once and for a short time, and sets the password, ending the account's sessions
// and revoking its API keys in every workspace, on every process.
import { mkdtemp, rm } from 'node:fs/promises';
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { loadConfig } from '../../src/config.js';
import type { KeyRevocationsWorker } from '../../src/capabilities/keys/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { sha256Hex } from '../../src/platform/crypto/hmac.js';
import { createLogger } from '../../src/platform/logger.js';
import { startService } from '../../src/service.js';
import { eventually } from '../support/events.js';
import { Client, type Reply } from '../support/http.js';
import { mintKey, newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';
import { SmtpReceiver, type ReceivedMail } from '../support/smtp-receiver.js';

/** The token of a reset or invite mail, from its decoded text (the link's fragment). */
async function tokenIn(mail: ReceivedMail): Promise<string> {
  const text = (await simpleParser(mail.raw)).text ?? '';
  const m = /#token=([A-Za-z0-9_-]+)/.exec(text);
  expect(m, text).to.not.equal(null);
  return decodeURIComponent(m![1]!);
}

describe('password resets by mail', function () {
  let t: TestService;
  let clock: ManualClock;
  let smtp: SmtpReceiver;
  let owner: Member;
  const reset = (email: string) => t.client.post('/api/password_resets', { email });
  const confirm = (token: string, password: string) => t.client.post('/api/password_resets/confirm', { token, password });

  before(async () => {
    clock = new ManualClock(new Date());
    smtp = await new SmtpReceiver().start();
    t = await startTestService('password_reset', {
      clock,
      env: { SMTP_RELAY_URL: smtp.url, MAIL_FROM: 'Help desk <no-reply@help.example>', PUBLIC_URL: 'https://help.example', PASSWORD_RESET_TTL_MINUTES: '20' },
    });
    owner = await newWorkspace(t);
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('answers identically for known and unknown addresses; only the account gets a mail, with a link the answer does not carry', async () => {
    const unknown = await reset(`nobody-${Date.now()}@example.com`);
    const known = await reset(owner.email.toUpperCase());
    for (const r of [unknown, known]) expect(r.status, r.text).to.equal(202);
    expect(known.body).to.deep.equal(unknown.body);
    expect(known.body).to.deep.equal({ type: 'password_reset', status: 'requested', expires_in_minutes: 20 });
    const headers = (r: typeof known) => [...r.headers.keys()].filter((k) => !['date', 'x-request-id', 'content-length', 'etag'].includes(k)).sort();
    expect(headers(known)).to.deep.equal(headers(unknown));
    expect(known.headers.get('content-length')).to.equal(unknown.headers.get('content-length'));

    // Mail goes out in order, after the answers: once the known address's is in, the unknown one had its turn.
    const [mail] = await smtp.waitFor(1);
    expect(smtp.received).to.have.length(1);
    expect(mail!.to).to.deep.equal([owner.email]);
    expect(mail!.from).to.equal('no-reply@help.example');
    expect(mail!.raw).to.match(/^Subject: Reset your password\r$/m);
    expect(mail!.raw).to.match(/^Auto-Submitted: auto-generated\r$/m);
    const token = await tokenIn(mail!);
    const text = (await simpleParser(mail!.raw)).text ?? '';
    expect(text).to.include(`https://help.example/reset-password#token=${token}`);
    expect(text.replace(/\s+/g, ' ')).to.include('signs you out everywhere and revokes every API key of your account');
    expect(known.text).to.not.include(token);
    // Only its hash is kept.
    const rows = await t.testDb.db('password_resets').select('token_hash');
    expect(JSON.stringify(rows)).to.not.include(token);
  });

  it('sets the new password once, ends the sessions and leaves the old password useless', async () => {
    smtp.received.length = 0;
    const session = await signIn(t, owner.email, owner.password);
    expect((await reset(owner.email)).status).to.equal(202);
    const token = await tokenIn((await smtp.waitFor(1))[0]!);

    const done = await confirm(token, 'a brand new password');
    expect(done.status, done.text).to.equal(200);
    expect(done.body).to.deep.equal({ type: 'password_reset', status: 'done', api_keys_revoked: 0 });
    const again = await confirm(token, 'yet another password');
    expect(again.status).to.equal(404);
    expect(again.body.errors[0].code).to.equal('reset_not_found');
    expect((await t.client.post('/api/session', { email: owner.email, password: owner.password })).status).to.equal(401);
    expect((await t.client.get('/api/me', { cookie: session, workspace: owner.workspaceId })).status, 'the old session ended').to.equal(401);
    owner = { ...owner, password: 'a brand new password', cookie: await signIn(t, owner.email, 'a brand new password') };
  });

  it('a link stops working after its time, and a newer link replaces an older one', async () => {
    smtp.received.length = 0;
    clock.advance(30 * 60_000); // the address's link budget refills (a burst of 3, then one every 10 minutes)
    expect((await reset(owner.email)).status).to.equal(202);
    const first = await tokenIn((await smtp.waitFor(1))[0]!);
    expect((await reset(owner.email)).status).to.equal(202);
    const second = await tokenIn((await smtp.waitFor(2))[1]!);
    expect((await confirm(first, 'not taken at all')).status, 'replaced').to.equal(404);
    clock.advance(20 * 60_000 + 1000);
    expect((await confirm(second, 'not taken either')).status, 'expired').to.equal(404);
    expect(await signIn(t, owner.email, owner.password)).to.be.a('string');
    expect((await confirm('not-a-token', 'whatever password')).status).to.equal(404);
  });

  /** Joins `email` (an account or not yet) to the inviter's workspace through the mailed invite; a fresh session. */
  async function join(inviter: Member, email: string, password: string, role: string): Promise<string> {
    const before = smtp.received.length;
    const inv = await t.client.post('/api/members/invites', { email, role }, { cookie: inviter.cookie, workspace: inviter.workspaceId });
    expect(inv.status, inv.text).to.equal(201);
    const token = await tokenIn((await smtp.waitFor(before + 1))[before]!);
    const accepted = await t.client.post('/api/invites/accept', { token, name: 'Member', password });
    expect(accepted.status, accepted.text).to.equal(202);
    return signIn(t, email, password);
  }

  /** Asks for a reset of `email`; the token its mail carries. */
  async function resetToken(email: string): Promise<string> {
    const before = smtp.received.length;
    expect((await reset(email)).status).to.equal(202);
    return tokenIn((await smtp.waitFor(before + 1))[before]!);
  }

  /** Someone who owns one workspace and is an agent in another, with a key in each; and a teammate with a key. */
  async function accountWithKeys() {
    const alpha = await newWorkspace(t, 'Alpha');
    const beta = await newWorkspace(t, 'Beta');
    const session = await join(beta, alpha.email, alpha.password, 'agent'); // the same account, now in both
    const keys = [
      await mintKey(t, { cookie: session, workspaceId: alpha.workspaceId }, ['members:read', 'events:read']),
      await mintKey(t, { cookie: session, workspaceId: beta.workspaceId }, ['members:read']),
    ];
    const mateSession = await join(alpha, `mate-${Date.now()}@example.com`, 'teammate password', 'agent');
    const teammate = await mintKey(t, { cookie: mateSession, workspaceId: alpha.workspaceId }, ['members:read', 'events:read']);
    return { alpha, beta, keys, teammate };
  }

  /** Another service process on the same database, without workers: another instance behind the load balancer. */
  async function secondProcess(): Promise<{ client: Client; close(): Promise<void> }> {
    const dataDir = await mkdtemp('/tmp/cs-second-');
    const config = loadConfig({ DATABASE_URL: t.testDb.url, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKERS: 'off' });
    // A clock that stands still: the keys it caches never expire, so only the reset's notification can drop them.
    const second = await startService({ config, clock: new ManualClock(clock.now()), log: createLogger('silent') });
    return {
      client: new Client(second.url),
      close: async () => {
        await second.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }

  const me = (c: Client, secret: string) => c.get('/api/me', { key: secret });
  const revocations = async (workspaceId: string) => (await t.service.deps.store.readTenant(workspaceId, 0, 1000)).filter((e) => e.type === 'api_key.revoked');

  it("revokes every key of the account, in each of its workspaces and through their logs, and counts them; a teammate's key stays", async () => {
    const { alpha, beta, keys, teammate } = await accountWithKeys();
    for (const k of [...keys, teammate]) expect((await me(t.client, k.secret)).status).to.equal(200); // cached from now on

    const done = await confirm(await resetToken(alpha.email), 'a reset password');
    expect(done.status, done.text).to.equal(200);
    expect(done.body).to.deep.equal({ type: 'password_reset', status: 'done', api_keys_revoked: 2 });

    // The 401 of any key nobody can use, to the byte.
    const answer = async (secret: string) => {
      const r = await t.client.get('/api/members', { headers: { authorization: `Bearer ${secret}`, 'x-request-id': 'same-id' } });
      return { status: r.status, text: r.text };
    };
    const unusable = await answer(`svc_${alpha.workspaceId.replace(/-/g, '')}_${'A'.repeat(43)}`);
    expect(unusable.status).to.equal(401);
    for (const k of keys) expect(await answer(k.secret)).to.deep.equal(unusable);
    expect((await me(t.client, teammate.secret)).status, "a teammate's key").to.equal(200);

    // Each workspace's log records its key's revocation, by the reset; the feed and the audit log show it.
    for (const [ws, key] of [
      [alpha, keys[0]!],
      [beta, keys[1]!],
    ] as const) {
      const [revoked, ...more] = await revocations(ws.workspaceId);
      expect(more).to.deep.equal([]);
      expect(revoked!.aggregate_id).to.equal(key.id);
      expect(revoked!.payload).to.include({ key_id: key.id, reason: 'password_reset' });
      expect(revoked!.metadata.actor).to.include({ type: 'system', id: 'password_reset' });
      expect(revoked!.metadata.actor!.member_id).to.equal(revoked!.payload.member_id);
    }
    expect((await revocations(alpha.workspaceId))[0]!.payload).to.include({ member_id: alpha.memberId, revoked_by: alpha.memberId });
    const feed = await t.client.get('/api/events?types=api_key.revoked', { key: teammate.secret });
    expect(feed.status, feed.text).to.equal(200);
    expect(feed.body.data.map((e: { payload: { key_id: string; reason: string } }) => [e.payload.key_id, e.payload.reason])).to.deep.equal([
      [keys[0]!.id, 'password_reset'],
    ]);
    const session = await signIn(t, alpha.email, 'a reset password');
    const audit = await t.client.get('/api/audit_log?action=api_key.revoked', { cookie: session, workspace: alpha.workspaceId });
    expect(audit.status, audit.text).to.equal(200);
    expect(audit.body.data.map((e: { aggregate_id: string; actor: unknown }) => [e.aggregate_id, e.actor])).to.deep.equal([
      [keys[0]!.id, { type: 'system', id: 'password_reset', member_id: alpha.memberId }],
    ]);
    const listed = await t.client.get('/api/keys', { cookie: session, workspace: alpha.workspaceId });
    expect(listed.body.data.find((k: { id: string }) => k.id === keys[0]!.id)).to.include({ status: 'revoked' });
    expect(listed.body.data.find((k: { id: string }) => k.id === teammate.id)).to.include({ status: 'active' });
    expect(
      await t.testDb.db('key_revocations_due').whereIn(
        'key_id',
        [...keys, teammate].map((k) => k.id),
      ),
      'nothing left owed',
    ).to.deep.equal([]);
  });

  it('another process drops the keys it cached as soon as the reset commits', async () => {
    const other = await secondProcess();
    try {
      const { alpha, keys, teammate } = await accountWithKeys();
      for (const k of [...keys, teammate]) expect((await me(other.client, k.secret)).status).to.equal(200); // cached there
      expect((await confirm(await resetToken(alpha.email), 'another reset password')).status).to.equal(200);
      // Told, not expired: the second process's clock stands still.
      for (const k of keys)
        await eventually(
          () => me(other.client, k.secret),
          (r) => r.status === 401,
          60_000,
        );
      expect((await me(other.client, teammate.secret)).status, "a teammate's key").to.equal(200);
    } finally {
      await other.close();
    }
  });

  it('a reset whose process dies before the logs are written: the keys die with its commit, on every process, and the worker writes their revocations', async () => {
    const other = await secondProcess();
    try {
      const { alpha, beta, keys } = await accountWithKeys();
      for (const c of [t.client, other.client]) for (const k of keys) expect((await me(c, k.secret)).status).to.equal(200);
      const token = await resetToken(alpha.email);
      // The confirm route's transaction, and nothing after it.
      const res = await t.testDb.db.raw('SELECT api_keys_revoked FROM consume_password_reset(?, ?, ?)', [sha256Hex(token), 'not a hash', clock.now()]);
      expect(res.rows).to.deep.equal([{ api_keys_revoked: 2 }]);
      for (const c of [t.client, other.client])
        for (const k of keys)
          await eventually(
            () => me(c, k.secret),
            (r) => r.status === 401,
            60_000,
          );
      expect(await revocations(alpha.workspaceId), 'not in the log yet').to.deep.equal([]);
      const listed = async () =>
        (await t.client.get('/api/keys', { cookie: beta.cookie, workspace: beta.workspaceId })).body.data.find((k: { id: string }) => k.id === keys[1]!.id);
      expect(await listed()).to.include({ status: 'active' });

      const worker = t.service.workers.find((w) => w.name === 'key_revocations') as KeyRevocationsWorker;
      expect(await worker.tick(), 'the reset has a minute to write them itself').to.equal(0);
      clock.advance(61_000);
      await worker.tick();
      expect((await revocations(alpha.workspaceId)).map((e) => [e.aggregate_id, e.payload.reason, e.metadata.actor?.id])).to.deep.equal([
        [keys[0]!.id, 'password_reset', 'password_reset'],
      ]);
      expect((await revocations(beta.workspaceId)).map((e) => e.aggregate_id)).to.deep.equal([keys[1]!.id]);
      expect(await listed()).to.include({ status: 'revoked' });
      expect(
        await t.testDb.db('key_revocations_due').whereIn(
          'key_id',
          keys.map((k) => k.id),
        ),
      ).to.deep.equal([]);
      expect(await worker.tick(), 'once').to.equal(0);
    } finally {
      await other.close();
    }
  });

  it('writes a row for a known and an unknown address alike, answers both byte for byte the same, and mails only the account', async () => {
    smtp.received.length = 0;
    const known = await newWorkspace(t, 'Known');
    const rows = async () =>
      (await t.testDb.db('password_resets').select('token_hash', 'user_id', 'expires_at')) as { token_hash: string; user_id: string | null }[];
    const ask = async (email: string): Promise<{ r: Reply; added: { token_hash: string; user_id: string | null }[] }> => {
      const before = new Set((await rows()).map((x) => x.token_hash));
      const r = await reset(email);
      return { r, added: (await rows()).filter((x) => !before.has(x.token_hash)) };
    };
    // Not timed (timing has no place in the suite): what makes the time differ is whether the request writes.
    const unknown = await ask(`nobody-${Date.now()}@example.com`);
    const account = await ask(known.email);
    expect(unknown.r.status).to.equal(202);
    expect(account.r.text).to.equal(unknown.r.text);
    expect(
      unknown.added.map((x) => x.user_id),
      'a decoy: no user',
    ).to.deep.equal([null]);
    expect(
      account.added.map((x) => typeof x.user_id),
      'the account',
    ).to.deep.equal(['string']);

    // Mail goes out in order, after the answers: once the account's is in, the unknown address had its turn.
    await smtp.waitFor(1);
    expect(smtp.received.map((m) => m.to)).to.deep.equal([[known.email]]);
    // The decoy is swept at its expiry like any reset.
    clock.advance(21 * 60_000);
    await ask(`someone-else-${Date.now()}@example.com`);
    expect((await rows()).map((x) => x.token_hash)).to.not.include(unknown.added[0]!.token_hash);
  });

  it('limits the links asked for one address (429), without touching its sign-ins', async () => {
    const email = `flooded-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await reset(email)).status);
    expect(statuses).to.deep.equal([202, 202, 202, 429]);
    expect(await signIn(t, owner.email, owner.password)).to.be.a('string');
  });
});
