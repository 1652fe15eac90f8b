// The one door for signed posts (issue 45): every route a channel signs (a
// bridge's messages and ratings, an MTA's raw e-mail) checks the same way and
// answers a replay as the duplicate it is. The contract's signature covers the
// body only, not x-service-timestamp, so captured bytes can be sent again under
// a fresh timestamp: they must file nothing, on every route, in every process,
// however late, and never set state back (a rating) or bring an erased thread
// back. Each route also shows the empty 401 and the channel's rate limit.
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { mailDns } from '../../src/capabilities/email/index.js';
import { createChannel, createEmailChannel, inboundBody, postInbound, postSigned, sign } from '../support/channels.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { CHANNELS_SECRET, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { CUSTOMER_ZONE, receivedFrom127, zoneResolver } from '../email/mail-rig.js';

const SECRETS_KEY = 'signed-door-test-secrets-key-0123456789';
const MIME_SECRET = 'signed-door-mime-secret-0123456789';
/** The channel's budget a window: the 30 concurrent copies fit, a loop of 41 posts does not. */
const CHANNEL_LIMIT = 40;

describe('the signed door: inbound, raw MIME and ratings answer replays as duplicates', function () {
  this.timeout(180_000);
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  const unix = () => Math.floor(clock.now().getTime() / 1000);
  const head = () => t.service.deps.store.head(owner.workspaceId);

  before(async () => {
    mailDns.resolver = zoneResolver(CUSTOMER_ZONE);
    // The system's time: a second process (the system clock) shares the database in the last case.
    clock = new ManualClock(new Date());
    t = await startTestService('signed_door', {
      clock,
      env: { SERVICE_SECRETS_KEY: SECRETS_KEY, RATE_LIMIT_CHANNEL: String(CHANNEL_LIMIT), EMAIL_DOMAIN_VERIFICATION: 'off' },
    });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'contacts:read', 'contacts:delete'])).secret;
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
  });

  let mailboxes = 0;
  const mime = (id: string) =>
    [
      ...receivedFrom127('mo@customer.example'),
      'From: Mo <mo@customer.example>',
      'To: help@door.example',
      'Subject: through the door',
      `Message-ID: <${id}@customer.example>`,
      '',
      'Hello through the door.',
      '',
    ].join('\r\n');

  /** Each route as a caller meets it: a fresh channel of its kind, and bytes it files (a new message, a rating). */
  interface Door {
    name: string;
    /** posts `bytes` makes on the channel's budget before the one it returns (a thread for a rating) */
    setupPosts: number;
    open(): Promise<{ path: string; secret: string; contentType: string; bytes(n: number): Promise<string> }>;
    /** what a replay answers: 202 and the body that says nothing was filed */
    duplicate(first: { body: any }, replay: { status: number; body: any }): void;
  }
  const doors: Door[] = [
    {
      name: 'POST /channels/{id}/inbound',
      setupPosts: 0,
      async open() {
        const ch = await createChannel(t, owner);
        return {
          path: `/api/channels/${ch.id}/inbound`,
          secret: ch.secret,
          contentType: 'application/json',
          bytes: async (n) => JSON.stringify(inboundBody({ external_id: `door-${n}-${Math.random()}` })),
        };
      },
      duplicate(first, replay) {
        expect(replay.body).to.deep.equal({ type: 'inbound_receipt', status: 'duplicate', conversation_id: first.body.conversation_id });
      },
    },
    {
      name: 'POST /channels/{id}/inbound/mime',
      setupPosts: 0,
      async open() {
        const address = `help${++mailboxes}@door.example`;
        const id = await createEmailChannel(t, owner, { address, secret: MIME_SECRET });
        return {
          path: `/api/channels/${id}/inbound/mime`,
          secret: MIME_SECRET,
          contentType: 'message/rfc822',
          bytes: async (n) => mime(`door-${n}-${Math.random()}`).replace('To: help@door.example', `To: ${address}`),
        };
      },
      duplicate(first, replay) {
        expect(replay.body).to.deep.equal({
          type: 'inbound_receipt',
          status: 'duplicate',
          conversation_id: first.body.conversation_id,
          part_id: first.body.part_id,
        });
      },
    },
    {
      name: 'POST /channels/{id}/ratings',
      setupPosts: 1,
      async open() {
        const ch = await createChannel(t, owner);
        return {
          path: `/api/channels/${ch.id}/ratings`,
          secret: ch.secret,
          contentType: 'application/json',
          // A thread to rate, then its rating at this moment.
          bytes: async () => {
            const thread = inboundBody();
            expect((await postInbound(t, ch.id, ch.secret, thread)).status).to.equal(201);
            return JSON.stringify({ external_id: thread.external_id, score: 3, rated_at: clock.now().toISOString() });
          },
        };
      },
      duplicate(first, replay) {
        expect(replay.body).to.deep.equal(first.body); // the rating in force, which is this one
      },
    },
  ];

  for (const door of doors) {
    describe(door.name, () => {
      it('answers a bad signature, another media type and an unknown channel with the same empty 401, and files nothing', async () => {
        const d = await door.open();
        const raw = await d.bytes(0);
        const before = await head();
        const answers = [
          await postSigned(t, d.path, d.secret, raw, { contentType: d.contentType, signature: sign('not the secret 0123456789', raw) }),
          await postSigned(t, d.path, d.secret, raw, { contentType: 'text/plain' }),
          await postSigned(t, d.path.replace(/[0-9a-f-]{36}/, '3f1c0a52-0000-4000-8000-000000000001'), d.secret, raw, { contentType: d.contentType }),
          await postSigned(t, d.path.replace(/[0-9a-f-]{36}/, 'not-a-uuid'), d.secret, raw, { contentType: d.contentType }),
        ];
        for (const a of answers) {
          expect(a.status).to.equal(401);
          expect(a.text).to.equal('');
          expect(a.headers.get('ratelimit'), 'no budget drawn for a caller without the secret').to.equal(null);
        }
        expect(await head()).to.equal(before);
      });

      it('answers the same bytes under a fresh timestamp 202, filing nothing, however many times', async () => {
        const d = await door.open();
        const raw = await d.bytes(1);
        const first = await postSigned(t, d.path, d.secret, raw, { contentType: d.contentType });
        expect(first.status, first.text).to.equal(201);
        const before = await head();
        for (const later of [0, 60_000, 4 * 60_000]) {
          clock.advance(later);
          const replay = await postSigned(t, d.path, d.secret, raw, { contentType: d.contentType, timestamp: unix() });
          expect(replay.status, replay.text).to.equal(202);
          door.duplicate(first, replay);
        }
        expect(await head()).to.equal(before);
      });

      it("draws on the channel's own budget once the signature verifies: the post past it is 429 with Retry-After, and files nothing", async () => {
        const d = await door.open();
        const raw = await d.bytes(2);
        const statuses: number[] = [];
        let last: Awaited<ReturnType<typeof postSigned>> | null = null;
        const admitted = CHANNEL_LIMIT - door.setupPosts;
        for (let i = 0; i <= admitted; i++) {
          last = await postSigned(t, d.path, d.secret, raw, { contentType: d.contentType });
          statuses.push(last.status);
        }
        // The first files, the replays each cost a request, and the one past the budget is refused.
        expect(statuses, JSON.stringify(statuses)).to.deep.equal([201, ...Array(admitted - 1).fill(202), 429]);
        expect(last!.body.errors[0].code).to.equal('rate_limited');
        expect(Number(last!.headers.get('retry-after'))).to.be.greaterThan(0);
        expect(last!.headers.get('ratelimit-policy')).to.include('"channel"');
        // The next window admits it again.
        clock.advance(61_000);
        expect((await postSigned(t, d.path, d.secret, raw, { contentType: d.contentType })).status).to.equal(202);
      });
    });
  }

  it('30 concurrent copies of one post: one 201 and 29 × 202, one conversation; 11 minutes on, 202 again; after the erasure, still nothing', async () => {
    const ch = await createChannel(t, owner);
    const body = inboundBody({ message_id: 'first-words' });
    const raw = JSON.stringify(body);
    const answers = await Promise.all(Array.from({ length: 30 }, () => postInbound(t, ch.id, ch.secret, undefined, { raw })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(statuses)).to.deep.equal([201, ...Array(29).fill(202)]);
    const filed = answers.find((a) => a.status === 201)!.body;
    for (const a of answers.filter((x) => x.status === 202)) expect(a.body.conversation_id).to.equal(filed.conversation_id);
    const list = await t.client.get(`/api/conversations?channel_id=${ch.id}`, { key });
    expect(list.body.data.map((c: { id: string }) => c.id)).to.deep.equal([filed.conversation_id]);

    // Past the signature memory (10 minutes): the thread's own rules find the post filed.
    clock.advance(11 * 60_000);
    const before = await head();
    const late = await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: unix() });
    expect(late.status, late.text).to.equal(202);
    expect(late.body).to.include({ status: 'duplicate', conversation_id: filed.conversation_id });
    expect(await head()).to.equal(before);

    // The contact is erased: their thread leaves a keyed hash, and no post to it, old bytes or new, files anything.
    expect((await t.client.delete(`/api/contacts/${filed.contact_id}`, { key })).status).to.equal(200);
    const erasedAt = await head();
    clock.advance(11 * 60_000);
    const replayed = await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: unix() });
    const followUp = await postInbound(t, ch.id, ch.secret, { ...body, message_id: 'after-the-erasure', content: 'Me again' });
    for (const r of [replayed, followUp]) {
      expect(r.status, r.text).to.equal(202);
      expect(r.body).to.deep.equal({ type: 'inbound_receipt', status: 'duplicate', conversation_id: null });
    }
    expect(await head()).to.equal(erasedAt);
    const rows = await t.testDb.db('conversation_thread_tombstones').where({ tenant_id: owner.workspaceId });
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows)).to.not.include(body.external_id);
    expect(await t.testDb.db('conversations').where({ tenant_id: owner.workspaceId, id: filed.conversation_id }).first('external_id')).to.deep.equal({
      external_id: null,
    });
    // A new thread id is a new thread.
    expect((await postInbound(t, ch.id, ch.secret, inboundBody())).status).to.equal(201);
  });

  it('a replayed older rating leaves the newer one, inside the signature memory and past it', async () => {
    const ch = await createChannel(t, owner);
    const thread = inboundBody();
    const filed = await postInbound(t, ch.id, ch.secret, thread);
    expect(filed.status).to.equal(201);
    const rate = (raw: string) => postSigned(t, `/api/channels/${ch.id}/ratings`, ch.secret, raw, { timestamp: unix() });
    const low = JSON.stringify({ external_id: thread.external_id, score: 1, remark: 'Slow', rated_at: clock.now().toISOString() });
    expect((await rate(low)).status).to.equal(201);
    clock.advance(1000);
    const high = await rate(JSON.stringify({ external_id: thread.external_id, score: 5, rated_at: clock.now().toISOString() }));
    expect(high.status, high.text).to.equal(201);
    const inForce = async () => (await t.client.get(`/api/conversations/${filed.body.conversation_id}`, { key })).body.rating;

    for (const later of [60_000, 11 * 60_000]) {
      clock.advance(later);
      const before = await head();
      const replay = await rate(low);
      expect(replay.status, replay.text).to.equal(202);
      expect(replay.body).to.include({ id: high.body.id, score: 5 });
      expect(await head()).to.equal(before);
      expect(await inForce()).to.include({ id: high.body.id, score: 5 });
    }
    // A rating dated ahead of the service clock could pin itself over every later one: refused.
    const ahead = JSON.stringify({ external_id: thread.external_id, score: 2, rated_at: new Date(clock.now().getTime() + 3600_000).toISOString() });
    const refused = await rate(ahead);
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0].code).to.equal('rated_at_ahead');
  });

  it('holds across processes: copies sent to two services on one database, one filed, the rest 202', async () => {
    let other: ServiceProcess | null = null;
    try {
      other = await spawnService({
        DATABASE_URL: t.testDb.url,
        SERVICE_CHANNELS_SECRET: CHANNELS_SECRET,
        SERVICE_SECRETS_KEY: SECRETS_KEY,
        RATE_LIMIT_CHANNEL: String(CHANNEL_LIMIT),
        WORKERS: 'off',
      });
      clock.set(new Date());
      const ch = await createChannel(t, owner);
      const raw = JSON.stringify(inboundBody());
      const headers = () => ({
        'content-type': 'application/json',
        'x-service-signature': sign(ch.secret, raw),
        'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
      });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other!.client : t.client).post(`/api/channels/${ch.id}/inbound`, undefined, { raw, headers: headers() })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, JSON.stringify(statuses)).to.deep.equal([201, ...Array(9).fill(202)]);
      // And later, to either of them.
      const again = await other.client.post(`/api/channels/${ch.id}/inbound`, undefined, { raw, headers: headers() });
      expect(again.status).to.equal(202);
      expect(again.body.conversation_id).to.equal(answers.find((a) => a.status === 201)!.body.conversation_id);
    } finally {
      if (other) {
        other.kill('SIGTERM');
        await other.exited;
      }
    }
  });

  it('keeps hashes of the signatures it remembers, and forgets them when their time is up', async () => {
    const ch = await createChannel(t, owner);
    const raw = JSON.stringify(inboundBody());
    expect((await postInbound(t, ch.id, ch.secret, undefined, { raw })).status).to.equal(201);
    const rows = await t.testDb.db('inbound_signatures').where({ channel_id: ch.id });
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows)).to.not.include(sign(ch.secret, raw));
    clock.advance(10 * 60_000 + 1000);
    // A verified post sweeps them (at most every five minutes a process), before it is answered.
    expect((await postInbound(t, ch.id, ch.secret, inboundBody())).status).to.equal(201);
    expect(await t.testDb.db('inbound_signatures').where('expires_at', '<=', clock.now())).to.have.length(0);
    expect(await t.testDb.db('inbound_signatures').where({ channel_id: ch.id })).to.have.length(1); // the new post's
  });
});
