// Group commit: while one transaction of a workspace is in flight, its commands
// queue; the next transaction takes them all, each deciding on the state the
// ones before it left, and commits once. To make the group certain rather than
// likely, the test holds the workspace's append lock from another connection
// while 50 requests arrive, then lets go.
import { expect } from 'chai';
import pg from 'pg';
import type { CommandContext, CommandSpec } from '../../src/commands/command.js';
import { TENANT_ROLE } from '../../src/platform/db/tenant-scope.js';
import { randomIds } from '../../src/platform/ids.js';
import { replyToConversation } from '../../src/capabilities/conversations/conversations.commands.js';
import { createChannel } from '../support/channels.js';
import { eventually } from '../support/events.js';
import { queuedBehindLock } from '../support/group-commit.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('group commit', () => {
  let t: TestService;
  let owner: Member;
  let key: string;
  let channelId: string;

  before(async () => {
    // The Postgres store's mechanism, on Postgres even with TEST_EVENT_STORE=eventstoredb: there is no group commit on
    // EventStoreDB (no transaction to share, no workspace lock to queue behind; the shell queues a workspace's
    // commands per process instead, docs/eventstoredb.md "Gaps that remain"), whose behaviour under 12 concurrent
    // commands of one workspace is earlier-commit.e2e.test.ts on both stores.
    t = await startTestService('group_commit', { env: { EVENTSTORE_URL: undefined } });
    expect(t.service.deps.store.kind).to.equal('postgres');
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'events:read'])).secret;
    channelId = (await createChannel(t, owner)).id;
  });
  after(() => t?.close());

  it('answers 50 concurrent commands of one workspace each on its own, refusals included, in one gapless run of seqs', async () => {
    const convs: string[] = [];
    for (let i = 0; i < 20; i++) {
      const c = await t.client.post('/api/conversations', { channel_id: channelId, body: `c${i}`, contact: { email: `g${i}@example.com` } }, { key });
      expect(c.status, c.text).to.equal(201);
      convs.push(c.body.id);
    }
    const head = async () => Number((await t.testDb.db('events').where({ tenant_id: owner.workspaceId }).max<{ m: string }[]>({ m: 'seq' }))[0]!.m);
    const before = await head();

    const locker = new pg.Client({ connectionString: t.testDb.url });
    await locker.connect();
    await locker.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [owner.workspaceId]);
    const parts = (id: string, body: unknown) => t.client.post(`/api/conversations/${id}/parts`, body, { key });
    let answers: Awaited<ReturnType<typeof parts>>[];
    // Statements that read conversations by id for the commands' loads (the service's pool and its transactions).
    const loads: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (/^SELECT \* FROM conversations WHERE tenant_id = \$1 AND id = /.test(q.sql.replace(/^\/\*.*?\*\/ /, ''))) loads.push(q.sql);
    };
    t.service.deps.db.on('query', onQuery);
    try {
      const requests = [
        ...convs.map((id) => t.client.post(`/api/conversations/${id}/reply`, { body: `reply to ${id}`, message_type: 'comment' }, { key })),
        // c0..c9 closed twice each: exactly one close wins, the other is refused by the state the first left
        ...convs.slice(0, 10).flatMap((id) => [parts(id, { message_type: 'close' }), parts(id, { message_type: 'close' })]),
        // refused by the decider whatever the state
        ...convs.slice(10, 20).map((id) => parts(id, { message_type: 'snoozed', snoozed_until: '2020-01-01T00:00:00Z' })),
      ];
      // The first command holds the shell's slot and waits for the lock; the other 49 queue behind it.
      await eventually(
        () => t.service.deps.shell.pending(owner.workspaceId),
        (n) => n === 49,
        20_000,
      );
      await locker.query('SELECT pg_advisory_unlock_all()');
      answers = await Promise.all(requests);
    } finally {
      t.service.deps.db.off('query', onQuery);
      await locker.end();
    }

    const replies = answers.slice(0, 20);
    const closes = answers.slice(20, 40);
    const snoozes = answers.slice(40);
    for (const r of replies) expect(r.status, r.text).to.equal(201);
    for (let i = 0; i < 10; i++) {
      const pair = [closes[2 * i]!, closes[2 * i + 1]!];
      expect(pair.map((r) => r.status).sort(), pair.map((r) => r.text).join(' | ')).to.deep.equal([201, 409]);
      expect(pair.find((r) => r.status === 409)!.body.errors[0].code).to.equal('conversation_already_closed');
    }
    for (const r of snoozes) {
      expect(r.status).to.equal(400);
      expect(r.body.errors[0].code).to.equal('snooze_in_past');
    }

    // 30 parts appended, seqs gapless, and each answer names its own event.
    expect(await head()).to.equal(before + 30);
    const seqs = (await t.testDb.db('events').where({ tenant_id: owner.workspaceId }).orderBy('seq').pluck('seq')).map(Number);
    expect(seqs).to.deep.equal(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const feed = (await t.client.get(`/api/events?after_seq=${before}&per_page=150`, { key })).body.data;
    const partIds = new Set(feed.map((e: { payload: { part_id: string } }) => e.payload.part_id));
    for (const r of [...replies, ...closes.filter((c) => c.status === 201)]) expect(partIds.has(r.body.id), r.text).to.equal(true);
    expect(partIds.size).to.equal(30);

    // They committed together: the 49 queued commands share one transaction.
    const txs = await t.testDb
      .db('events')
      .where({ tenant_id: owner.workspaceId })
      .andWhere('seq', '>', before)
      .select(t.testDb.db.raw('tx_id::text AS tx'), t.testDb.db.raw("metadata->>'request_id' AS request_id"));
    const byTx = new Map<string, Set<string>>();
    for (const r of txs) byTx.set(r.tx, (byTx.get(r.tx) ?? new Set()).add(r.request_id));
    expect(Math.max(...[...byTx.values()].map((s) => s.size)), 'commands sharing one transaction').to.be.at.least(20);
    // Their conversations were loaded together, a statement per run of the group rather than one per command (50,
    // and the reloads): a run ends at each close that finds its pair's close before it, so about a dozen runs.
    expect(loads.length, loads.join('\n')).to.be.greaterThan(0).and.at.most(15);
    // The read models followed every one of them.
    const closed = await t.testDb.db('conversations').where({ tenant_id: owner.workspaceId, state: 'closed' }).count<{ n: string }[]>({ n: '*' });
    expect(Number(closed[0]!.n)).to.equal(10);
  });

  it('a command queued the moment the previous one resolves (no I/O between) is drained, not stranded', async () => {
    const { shell } = t.service.deps;
    const ctx = (): CommandContext => ({ tenantId: owner.workspaceId, now: t.clock.now(), actor: { type: 'system', id: 'test' } });
    const nothing: CommandSpec<null> = { name: 'Nothing', load: async () => null, decide: () => [] };
    // Each next command is queued from the previous one's continuation, before the drain that answered it has
    // finished: it must land in a queue that is still drained (it once went into one about to be dropped).
    const chain = (async () => {
      for (let i = 0; i < 20; i++) {
        // k extra microtask hops after the answer, for k = 0…9: whichever the drain needs to finish, one of them lands inside it.
        await shell.execute(ctx(), nothing);
        for (let k = 0; k < i % 10; k++) await null;
      }
    })();
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('a command was stranded in the shell queue')), 10_000)));
    try {
      await Promise.race([chain, stuck]);
    } finally {
      clearTimeout(timer);
    }
  });

  it('a command that fails after writing began does not sink the others: the group runs again one by one', async () => {
    const conv = await t.client.post('/api/conversations', { channel_id: channelId, body: 'x', contact: { email: 'fail@example.com' } }, { key });
    const locker = new pg.Client({ connectionString: t.testDb.url });
    await locker.connect();
    // Fail every insert of a conversation part whose body is "boom".
    await locker.query(`CREATE OR REPLACE FUNCTION test_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.body = 'boom' THEN RAISE EXCEPTION 'boom (test fault)'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_boom BEFORE INSERT ON conversation_parts FOR EACH ROW EXECUTE FUNCTION test_boom();`);
    await locker.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [owner.workspaceId]);
    let answers: Awaited<ReturnType<typeof t.client.post>>[];
    try {
      const reply = (body: string) => t.client.post(`/api/conversations/${conv.body.id}/reply`, { body, message_type: 'note' }, { key });
      const requests = [reply('one'), reply('two'), reply('boom'), reply('three'), reply('four')];
      await eventually(
        () => t.service.deps.shell.pending(owner.workspaceId),
        (n) => n === 4,
        20_000,
      );
      await locker.query('SELECT pg_advisory_unlock_all()');
      answers = await Promise.all(requests);
    } finally {
      await locker.query('DROP TRIGGER IF EXISTS test_boom ON conversation_parts').catch(() => undefined);
      await locker.end();
    }
    expect(answers.map((a) => a.status)).to.deep.equal([201, 201, 500, 201, 201]);
    const bodies = (await t.client.get(`/api/conversations/${conv.body.id}`, { key })).body.parts.map((p: { body: string }) => p.body);
    expect(bodies).to.deep.equal(['x', 'one', 'two', 'three', 'four']);
  });

  it('a group runs as its workspace behind row-level security, whoever queued first', async () => {
    const { shell, scope } = t.service.deps;
    const tenantId = owner.workspaceId;
    const seen = new Map<string, { role: string; tenant: string }>();
    // Records the role and tenant setting of the connection it loads on.
    const probe = (name: string): CommandSpec<null> => ({
      name: 'Probe',
      load: async (db) => {
        const r = await db.raw("SELECT current_user AS role, current_setting('app.tenant_id', true) AS tenant");
        seen.set(name, r.rows[0] as { role: string; tenant: string });
        return null;
      },
      decide: () => [],
    });
    const ctx: CommandContext = { tenantId, now: new Date(), actor: { type: 'system', id: 'test' } };
    const locker = new pg.Client({ connectionString: t.testDb.url });
    await locker.connect();
    await locker.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [tenantId]);
    try {
      // The first caller is outside any tenant scope (as a worker or the CLI is); it drains the queue and waits for the lock.
      const first = shell.execute(ctx, probe('first'));
      // Two requests of the workspace queue behind it and run as one group after it.
      const queued = ['second', 'third'].map((n) => scope.run(tenantId, () => shell.execute(ctx, probe(n))));
      await eventually(
        () => shell.pending(tenantId),
        (n) => n === 2,
        20_000,
      );
      await locker.query('SELECT pg_advisory_unlock_all()');
      await Promise.all([first, ...queued]);
    } finally {
      await locker.end();
    }
    expect([...seen.keys()].sort()).to.deep.equal(['first', 'second', 'third']);
    for (const [name, s] of seen) expect({ name, role: s.role, tenant: s.tenant }).to.deep.equal({ name, role: TENANT_ROLE, tenant: tenantId });
  });

  it('loads keyed commands together and writes them in one statement; one whose key an earlier one touched is loaded again after that write', async () => {
    const { shell } = t.service.deps;
    const tenantId = owner.workspaceId;
    const x = (await t.client.post('/api/conversations', { channel_id: channelId, body: 'x', contact: { email: 'keyed-x@example.com' } }, { key })).body
      .id as string;
    const ctx = (): CommandContext => ({ tenantId, now: t.clock.now(), actor: { type: 'system', id: 'test' } });
    const partsOfX = async (db: Parameters<CommandSpec<null>['load']>[0]) =>
      Number((await db('conversation_parts').where({ tenant_id: tenantId, conversation_id: x }).count<{ n: string }[]>({ n: '*' }))[0]!.n);
    // Records how many parts of x it saw when it was (last) loaded. The one keyed on another conversation breaks
    // its promise on purpose (it reads x): what it saw shows whether it was loaded beside the reply or after it.
    const seen = new Map<string, number>();
    const probe = (name: string, keys: string[]): CommandSpec<null> => ({
      name: 'Probe',
      load: async (db) => {
        seen.set(name, await partsOfX(db));
        return null;
      },
      decide: () => [],
      keys: () => keys,
    });
    const reply = (body: string) =>
      replyToConversation({
        conversationId: x,
        partId: randomIds.uuid(),
        messageType: 'note',
        body,
        attachments: [],
        author: { type: 'member', id: owner.memberId },
      });
    const before = Number(
      (await t.testDb.db('conversation_parts').where({ tenant_id: tenantId, conversation_id: x }).count<{ n: string }[]>({ n: '*' }))[0]!.n,
    );
    const locker = new pg.Client({ connectionString: t.testDb.url });
    await locker.connect();
    await locker.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [tenantId]);
    try {
      const first = shell.execute(ctx(), { name: 'Nothing', load: async () => null, decide: () => [] });
      // It holds the shell's slot once its transaction waits for the lock; what is queued next is one group.
      const waiting = async () =>
        Number(
          (
            await locker.query(
              "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            )
          ).rows[0].n,
        );
      await eventually(waiting, (n) => n === 1, 20_000);
      const queued = [
        shell.execute(ctx(), reply('one')),
        shell.execute(ctx(), probe('other conversation', [`conversation:${randomIds.uuid()}`])),
        shell.execute(ctx(), probe('x after one', [`conversation:${x}`])),
        shell.execute(ctx(), reply('two')),
        shell.execute(ctx(), probe('x after two', [`conversation:${x}`])),
      ];
      await eventually(
        () => shell.pending(tenantId),
        (n) => n === 5,
        20_000,
      );
      await locker.query('SELECT pg_advisory_unlock_all()');
      const [, one, , , two] = await Promise.all([first, ...queued]);
      expect([one!.events.length, two!.events.length]).to.deep.equal([1, 1]);
    } finally {
      await locker.end();
    }
    expect(Object.fromEntries(seen)).to.deep.equal({ 'other conversation': before, 'x after one': before + 1, 'x after two': before + 2 });
    const bodies = (await t.client.get(`/api/conversations/${x}`, { key })).body.parts.map((p: { body: string }) => p.body);
    expect(bodies.slice(-2)).to.deep.equal(['one', 'two']);
  });

  it('30 concurrent starts asserting 5 customers in mixed forms come to 5 contacts, as one by one would', async () => {
    const ws = await newWorkspace(t);
    const wsKey = (await mintKey(t, ws, ['conversations:read', 'conversations:write'])).secret;
    const wsChannel = (await createChannel(t, ws)).id;
    // By external_id and e-mail, by e-mail alone (another case), by external_id alone: the first of each customer
    // creates the contact, every later one must find it, whichever form it asserts.
    const assertion = (i: number) => {
      const c = i % 5;
      return [{ external_id: `cust-${c}`, email: `cust${c}@example.com` }, { email: `CUST${c}@Example.com` }, { external_id: `cust-${c}` }][
        Math.floor(i / 5) % 3
      ]!;
    };
    // Queued in a known order, 0 to 29, so that "one by one" has a meaning: which form of a customer comes first
    // decides what one by one gives (an e-mail-only assertion ahead of its customer's external_id-and-e-mail one,
    // with the external_id-only one before both, makes a sixth contact one by one too). Sent together, the
    // requests reach the service in whatever order their connections deliver them.
    const post = (i: number) => t.client.post('/api/conversations', { channel_id: wsChannel, body: `m${i}`, contact: assertion(i) }, { key: wsKey });
    const answers = await queuedBehindLock(
      t,
      ws.workspaceId,
      Array.from({ length: 30 }, (_, i) => () => post(i)),
    );
    for (const a of answers) expect(a.status, a.text).to.equal(201);
    const contacts = await t.testDb.db('contacts').where({ tenant_id: ws.workspaceId }).select('id', 'external_id', 'email');
    expect(contacts.map((c) => c.external_id).sort()).to.deep.equal(['cust-0', 'cust-1', 'cust-2', 'cust-3', 'cust-4']);
    const rows = await t.testDb.db('conversations').where({ tenant_id: ws.workspaceId }).select('id', 'contact_id');
    const contactOf = new Map(rows.map((r) => [r.id as string, r.contact_id as string]));
    const byCustomer = new Map<number, Set<string>>();
    answers.forEach((a, i) => byCustomer.set(i % 5, (byCustomer.get(i % 5) ?? new Set()).add(contactOf.get(a.body.id)!)));
    for (const [, ids] of byCustomer) expect(ids.size).to.equal(1);
    // They committed together (the 29 queued starts in one transaction).
    const txs = await t.testDb.db('events').where({ tenant_id: ws.workspaceId, type: 'conversation.created' }).select(t.testDb.db.raw('tx_id::text AS tx'));
    const perTx = new Map<string, number>();
    for (const r of txs) perTx.set(r.tx, (perTx.get(r.tx) ?? 0) + 1);
    expect(Math.max(...perTx.values())).to.equal(29);
  });
});
