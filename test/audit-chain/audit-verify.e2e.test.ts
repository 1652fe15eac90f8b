// The log as evidence, from the outside (issue 29, items 2 to 5): the hash chain
// is checked by `npm run -s cli -- audit verify` over the database (a real child
// process), which exits 0 when every workspace's chain and checkpoints hold and 1
// naming the workspace and the first seq that does not, whatever an attacker
// with database access did: one byte of a payload changed with triggers
// bypassed, an event deleted, two events swapped, an event appended with a
// forged hash, a tail rewritten with recomputed hashes under a signed
// checkpoint. An erasure breaks nothing and leaves the contact's data nowhere.
import { randomBytes, createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { canonicalReady, chainHash } from '../../src/platform/crypto/chain.js';
import { createChannel, inboundBody, sign } from '../support/channels.js';
import { EventStoreDBClient, jsonEvent, WrongExpectedVersionError, type JSONRecordedEvent } from '@eventstore/db-client';
import { eventsAsStored, streamPrefixFor, testEventStoreUrl } from '../support/event-store.js';
import { childEnv, runCli } from '../support/process.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const marker = (what: string) => `${what}${randomBytes(6).toString('hex')}`;

/** Every row of every table, as text (bytea as hex). */
async function dumpDatabase(db: Knex): Promise<string> {
  const tables = (await db.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows as { tablename: string }[];
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const r = await db.raw(`SELECT coalesce(string_agg(t::text, E'\\n'), '') AS rows FROM "${tablename}" t`);
    parts.push(`-- ${tablename}\n${r.rows[0].rows as string}`);
  }
  return parts.join('\n');
}

interface EventRow {
  tenant_id: string;
  seq: string;
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: Date;
  tx_id: string;
  position: string;
  hash: string;
}

describe('audit verify: the hash chain and its checkpoints over the database (CLI)', function () {
  this.timeout(600_000);
  let t: TestService;
  let owner: Member;
  let other: Member;
  let key: string;
  let env: NodeJS.ProcessEnv;
  let db: Knex;
  let ch: { id: string; secret: string };

  const verify = (args: string[] = []) => runCli(['audit', 'verify', ...args], env);
  /** The event rows of a workspace as stored, by seq. */
  const rows = async (tenant: string): Promise<EventRow[]> =>
    esdb
      ? ((await eventsAsStored(db, t.testDb.url, 'eventstoredb', tenant)).map((e) => ({ ...e, seq: String(e.seq) })) as unknown as EventRow[])
      : (await db.raw('SELECT *, tx_id::text AS tx_id, position::text AS position FROM events WHERE tenant_id = ? ORDER BY seq', [tenant])).rows;
  /**
   * On EventStoreDB (TEST_EVENT_STORE=eventstoredb) the rows above cannot be tampered with by SQL: the log is the
   * server's streams, whose API has no update, no delete of one event and no reorder (docs/eventstoredb.md, "The
   * audit trail on EventStoreDB"). These cases then check what stands in for each attack there: the server refuses
   * to write over a stored revision, hides a truncated prefix ($tb) that verify names, and a forged append is named.
   */
  const esdb = testEventStoreUrl();
  let client: EventStoreDBClient | null = null;
  const streamOf = (tenant: string) => `${streamPrefixFor(t.testDb.url)}${tenant}`;
  /** The server refuses an event written over stored revision `seq - 1`: the event as stored stays, verify still exits 0. */
  async function refusedOverwrite(tenant: string, seq: number, data: Record<string, unknown>): Promise<void> {
    const err = await client!.appendToStream(streamOf(tenant), jsonEvent({ type: 'tampered', data }), { expectedRevision: BigInt(seq - 2) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'the server took an event written over a stored revision').to.be.instanceOf(WrongExpectedVersionError);
    const r = await verify();
    expect(r.exit.code, r.stderr).to.equal(0);
  }
  const head = async (tenant: string) => Number((await db('event_heads').where({ tenant_id: tenant }).first('last_seq')).last_seq);

  /** Runs `sql` as an attacker would: triggers bypassed (session_replication_role = replica), in one transaction. */
  async function tamper(sql: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
    await db.transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await sql(trx);
    });
  }

  async function putBack(row: EventRow): Promise<void> {
    await tamper(async (trx) => {
      await trx.raw('DELETE FROM events WHERE tenant_id = ? AND seq = ?', [row.tenant_id, row.seq]);
      await trx.raw(
        `INSERT INTO events (tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, tx_id, position, hash)
         VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?::xid8, ?, ?)`,
        [
          row.tenant_id,
          row.seq,
          row.id,
          row.type,
          row.aggregate_type,
          row.aggregate_id,
          JSON.stringify(row.payload),
          JSON.stringify(row.metadata),
          row.created_at,
          row.tx_id,
          row.position,
          row.hash,
        ],
      );
    });
  }

  /** verify exits 1, naming this workspace and seq first on stderr, and in its JSON report. */
  async function expectFailureAt(tenant: string, seq: number, reason: RegExp): Promise<void> {
    const r = await verify();
    expect(r.exit.code, `${r.stdout}\n${r.stderr}`).to.equal(1);
    expect(r.stderr).to.include(`workspace ${tenant}: first failing seq ${seq}:`);
    expect(r.json).to.include({ verified: false });
    expect(r.json.failures).to.deep.equal([{ workspace_id: tenant, seq, reason: r.json.failures[0].reason }]);
    expect(r.json.failures[0].reason).to.match(reason);
  }

  before(async () => {
    t = await startTestService('audit-verify', { env: { TRUST_PROXY: 'loopback' } });
    db = t.testDb.db;
    env = childEnv({ DATABASE_URL: t.testDb.url, LOG_LEVEL: 'warn' });
    if (esdb) client = EventStoreDBClient.connectionString(esdb);
    owner = await newWorkspace(t);
    other = await newWorkspace(t, 'Other');
    ch = await createChannel(t, owner);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write', 'contacts:delete', 'audit:read'])).secret;
    // Concurrent requests of one workspace: group commit chains them in one transaction under one lock.
    const started = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.client.post('/api/conversations', { channel_id: ch.id, body: `Hello ${i}`, contact: { email: `buyer${i}@example.com` } }, { key }),
      ),
    );
    for (const s of started) expect(s.status, s.text).to.equal(201);
    await Promise.all(started.map((s, i) => t.client.post(`/api/conversations/${s.body.id}/reply`, { body: `Reply ${i}`, message_type: 'comment' }, { key })));
  });
  after(async () => {
    await client?.dispose();
    await t?.close();
  });

  it('exits 0 on the log the service wrote (concurrent requests under group commit included), the chain read back as the stores wrote it', async () => {
    const events = await rows(owner.workspaceId);
    expect(events.length).to.be.greaterThan(40);
    // Several events of one transaction: group commit chained them (Postgres: EventStoreDB has no group commit).
    if (!esdb) expect(new Set(events.map((e) => e.tx_id)).size).to.be.lessThan(events.length);
    else for (const e of events) expect(e.hash, `seq ${e.seq} has no chain hash`).to.match(/^[0-9a-f]{64}$/);
    const r = await verify();
    expect(r.exit.code, r.stderr).to.equal(0);
    expect(r.json).to.include({ verified: true, workspaces: 2 });
    expect(r.json.events).to.equal(events.length + (await rows(other.workspaceId)).length);
    expect(r.json.failures).to.deep.equal([]);
    // Not on a terminal: no progress bar, the result alone.
    expect(r.stderr).to.not.include('events/s');
  });

  it('exits 1 naming the seq whose payload had one byte changed (triggers bypassed)', async () => {
    const events = await rows(owner.workspaceId);
    const victim = events.find((e) => e.type === 'conversation_part.created' && e.seq !== '1')!;
    if (esdb) return refusedOverwrite(owner.workspaceId, Number(victim.seq), { ...victim.payload, note: 'changed' });
    const text = JSON.stringify(victim.payload);
    const at = text.indexOf('"c":"') + 10; // a byte inside the sealed body's ciphertext
    const changed = `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    await tamper((trx) =>
      trx.raw('UPDATE events SET payload = ?::jsonb WHERE tenant_id = ? AND seq = ?', [changed, owner.workspaceId, victim.seq]).then(() => undefined),
    );
    try {
      await expectFailureAt(owner.workspaceId, Number(victim.seq), /changed, replaced or moved/);
    } finally {
      await putBack(victim);
    }
    expect((await verify()).exit.code).to.equal(0);
  });

  it('exits 1 naming the seq of a deleted event', async () => {
    const victim = (await rows(owner.workspaceId))[9]!;
    if (esdb) {
      // What EventStoreDB lets an attacker delete: a prefix, by truncation ($tb in the stream's metadata; a scavenge
      // would make it final). Verify names seq 1; lifting $tb (before any scavenge) brings the events back.
      await client!.setStreamMetadata(streamOf(owner.workspaceId), { truncateBefore: Number(victim.seq) });
      try {
        await expectFailureAt(owner.workspaceId, 1, /missing/);
      } finally {
        await client!.setStreamMetadata(streamOf(owner.workspaceId), { truncateBefore: 0 });
      }
      expect((await verify()).exit.code).to.equal(0);
      return;
    }
    await tamper((trx) => trx.raw('DELETE FROM events WHERE tenant_id = ? AND seq = ?', [owner.workspaceId, victim.seq]).then(() => undefined));
    try {
      await expectFailureAt(owner.workspaceId, Number(victim.seq), /missing/);
    } finally {
      await putBack(victim);
    }
  });

  it('exits 1 naming the first of two swapped events', async () => {
    const [a, b] = [(await rows(owner.workspaceId))[4]!, (await rows(owner.workspaceId))[7]!];
    if (esdb) return refusedOverwrite(owner.workspaceId, Number(a.seq), b.payload);
    const swap = () =>
      tamper(async (trx) => {
        await trx.raw('UPDATE events SET seq = -1 WHERE tenant_id = ? AND seq = ?', [owner.workspaceId, a.seq]);
        await trx.raw('UPDATE events SET seq = ? WHERE tenant_id = ? AND seq = ?', [a.seq, owner.workspaceId, b.seq]);
        await trx.raw('UPDATE events SET seq = ? WHERE tenant_id = ? AND seq = -1', [b.seq, owner.workspaceId]);
      });
    await swap();
    try {
      await expectFailureAt(owner.workspaceId, Number(a.seq), /changed, replaced or moved/);
    } finally {
      await swap();
    }
  });

  it('exits 1 naming an event appended with a forged hash that no signed checkpoint covers', async () => {
    if (esdb) {
      // Anyone who may write the streams can append. The forged event goes to a workspace under a stream prefix of its
      // own (so this service's subscriptions, filtered on its prefix, never project it and the other cases' verify
      // runs never list it: a stream cannot be shortened again), copied from a real one with another payload and a
      // made-up hash; `audit verify --workspace` with that prefix names it.
      const [real] = await client!.readStream<JSONRecordedEvent>(streamOf(owner.workspaceId), { maxCount: 1 }).toArray();
      const forgedTenant = randomUUID();
      const forgedPrefix = `forged.${streamPrefixFor(t.testDb.url)}`;
      const original = real!.event! as unknown as { type: string; data: Record<string, unknown>; metadata: Record<string, unknown> };
      await client!.appendToStream(
        `${forgedPrefix}${forgedTenant}`,
        jsonEvent({
          type: original.type,
          data: { ...original.data, payload: { ...(original.data.payload as object), note: 'approved by nobody' } },
          metadata: { ...original.metadata, hash: createHash('sha256').update('forged').digest('hex') },
        }),
      );
      const r = await runCli(['audit', 'verify', '--workspace', forgedTenant], { ...env, EVENTSTORE_STREAM_PREFIX: forgedPrefix });
      expect(r.exit.code, `${r.stdout}\n${r.stderr}`).to.equal(1);
      expect(r.stderr).to.include(`workspace ${forgedTenant}: first failing seq 1:`);
      expect(r.json.failures[0].reason).to.match(/changed, replaced or moved/);
      expect((await verify()).exit.code).to.equal(0);
      return;
    }
    const events = await rows(owner.workspaceId);
    const last = events[events.length - 1]!;
    const seq = Number(last.seq) + 1;
    expect(await head(owner.workspaceId)).to.equal(seq - 1);
    const forged = { ...last, seq: String(seq), id: '6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b', payload: { ...last.payload, note: 'approved by nobody' } };
    await tamper(async (trx) => {
      await trx.raw(
        `INSERT INTO events (tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, hash)
         VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)`,
        [
          owner.workspaceId,
          seq,
          forged.id,
          forged.type,
          forged.aggregate_type,
          forged.aggregate_id,
          JSON.stringify(forged.payload),
          JSON.stringify(forged.metadata),
          forged.created_at,
          createHash('sha256').update('forged').digest('hex'),
        ],
      );
      await trx.raw('UPDATE event_heads SET last_seq = ? WHERE tenant_id = ?', [seq, owner.workspaceId]);
    });
    expect(await db('audit_checkpoints').where({ tenant_id: owner.workspaceId }).andWhere('seq', '>=', seq).first()).to.equal(undefined);
    try {
      await expectFailureAt(owner.workspaceId, seq, /changed, replaced or moved/);
    } finally {
      await tamper(async (trx) => {
        await trx.raw('DELETE FROM events WHERE tenant_id = ? AND seq = ?', [owner.workspaceId, seq]);
        await trx.raw('UPDATE event_heads SET last_seq = ? WHERE tenant_id = ?', [seq - 1, owner.workspaceId]);
      });
    }
    expect((await verify()).exit.code).to.equal(0);
  });

  it('a tail rewritten with every later hash recomputed holds as a chain, and is caught by the signed checkpoint covering it', async () => {
    const signed = await t.client.get('/api/audit/checkpoint', { key });
    expect(signed.status, signed.text).to.equal(200);
    const events = await rows(owner.workspaceId);
    expect(signed.body.seq).to.equal(events.length);
    if (esdb) {
      // No rewrite through the server's API: the tail's revisions are taken, and the signed checkpoint still holds.
      await refusedOverwrite(owner.workspaceId, 20, { ...events[19]!.payload, note: 'rewritten' });
      expect((await t.client.get('/api/audit/checkpoint', { key })).body).to.include({ seq: signed.body.seq, hash: signed.body.hash });
      return;
    }
    await canonicalReady;
    const from = 20;
    // The attacker rewrites seq `from` and recomputes every hash after it: the chain alone cannot tell.
    let prev = events[from - 2]!.hash;
    const rewritten = events.slice(from - 1).map((e, i) => {
      const payload = i === 0 ? { ...e.payload, note: 'rewritten' } : e.payload;
      const hash = chainHash(prev, { ...e, seq: Number(e.seq), payload, created_at: e.created_at.toISOString() });
      prev = hash;
      return { seq: e.seq, payload, hash };
    });
    await tamper(async (trx) => {
      for (const r of rewritten)
        await trx.raw('UPDATE events SET payload = ?::jsonb, hash = ? WHERE tenant_id = ? AND seq = ?', [
          JSON.stringify(r.payload),
          r.hash,
          owner.workspaceId,
          r.seq,
        ]);
    });
    try {
      await expectFailureAt(owner.workspaceId, signed.body.seq, /checkpoint .* signed \(the log was rewritten\)/);
    } finally {
      for (const e of events.slice(from - 1)) await putBack(e);
    }
    expect((await verify()).exit.code).to.equal(0);
  });

  it("after a contact's erasure it still exits 0, and the contact's data (the bridge's address included) is nowhere in a database dump", async () => {
    const m = { name: marker('Name'), email: `${marker('mail')}@marker.example`, message: marker('inbound'), subject: marker('subject') };
    const ip = `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`;
    // The bridge's post, from an address a proxy names (its address is the contact's personal data).
    const raw = JSON.stringify(inboundBody({ contact: { external_id: marker('ext'), name: m.name, email: m.email }, content: m.message }));
    const post = await t.client.post(`/api/channels/${ch.id}/inbound`, undefined, {
      raw,
      headers: {
        'content-type': 'application/json',
        'x-service-signature': sign(ch.secret, raw),
        'x-service-timestamp': String(Math.floor(t.clock.now().getTime() / 1000)),
        'x-forwarded-for': ip,
      },
    });
    expect(post.status, post.text).to.equal(201);
    const started = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, body: marker('started'), subject: m.subject, contact: { email: m.email } },
      { key, headers: { 'x-forwarded-for': ip } },
    );
    expect(started.status, started.text).to.equal(201);
    const before = await dumpDatabase(db);
    for (const v of [m.name, m.email, m.message, m.subject]) expect(before, 'sealed before, so only in the read models').to.include(v);

    const erase = await t.client.delete(`/api/contacts/${post.body.contact_id}`, { key });
    expect(erase.status, erase.text).to.equal(200);

    const r = await verify();
    expect(r.exit.code, r.stderr).to.equal(0);
    const after = await dumpDatabase(db);
    for (const [name, v] of Object.entries(m)) expect(after.includes(v), `${name} still in the dump`).to.equal(false);
    expect(after.includes(ip), "the bridge's address still in the dump").to.equal(false);
  });

  it('names a workspace with --workspace, refuses a malformed one (exit 2), and --file without --keys', async () => {
    const one = await verify(['--workspace', other.workspaceId]);
    expect(one.exit.code, one.stderr).to.equal(0);
    expect(one.json).to.include({ verified: true, workspaces: 1 });
    const bad = await verify(['--workspace', 'nope']);
    expect(bad.exit.code).to.equal(2);
    expect(bad.stderr).to.match(/not a workspace id/);
    const lone = await verify(['--file', 'x.ndjson']);
    expect(lone.exit.code).to.equal(2);
    expect(lone.stderr).to.match(/--file and --keys go together/);
  });
});
