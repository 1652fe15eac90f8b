// Evidence that survives a hostile database administrator (issue 44), from the
// outside: someone with write access to Postgres rewrites an event and
// recomputes every later hash, appends a made-up hash, deletes the service's
// checkpoints, or inserts a key and a checkpoint of their own. The service then
// signs nothing (409 audit_chain_broken naming the seq, one error line and a
// metric per workspace until the log is restored); with a witness folder it
// still remembers what it signed after the table is emptied; and the checkpoints
// an auditor kept (`audit verify --trusted`, offline and over the database) catch
// the rewrite whatever the database now says. Checkpoints chain (version 2), so
// one deleted from the table shows; a key row whose kid is not its thumbprint is
// neither served nor trusted.
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { canonicalReady, chainHash } from '../../src/platform/crypto/chain.js';
import { signerOf, type Signer } from '../../src/platform/crypto/signing.js';
import { checkpointDigest, checkpointHolds, signedBytes, type Checkpoint } from '../../src/capabilities/audit-chain/audit-chain.checkpoints.js';
import { createChannel } from '../support/channels.js';
import { childEnv, runCli } from '../support/process.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

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

/** What someone with write access to the database can do to one workspace's log (triggers bypassed, one transaction each). */
function attacker(db: Knex, tenant: string) {
  const tamper = (sql: (trx: Knex.Transaction) => Promise<unknown>) =>
    db.transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await sql(trx);
    });
  const rows = async (): Promise<EventRow[]> =>
    (await db.raw('SELECT *, tx_id::text AS tx_id, position::text AS position FROM events WHERE tenant_id = ? ORDER BY seq', [tenant])).rows;
  return {
    rows,
    /** Rewrites event `from` and recomputes every later hash: the chain alone cannot tell. Returns the rows as they were. */
    async rewrite(from: number): Promise<EventRow[]> {
      await canonicalReady;
      const events = await rows();
      let prev = events[from - 2]!.hash;
      await tamper(async (trx) => {
        for (const [i, e] of events.slice(from - 1).entries()) {
          const payload = i === 0 ? { ...e.payload, note: 'rewritten' } : e.payload;
          prev = chainHash(prev, { ...e, seq: Number(e.seq), payload, created_at: e.created_at.toISOString() });
          await trx.raw('UPDATE events SET payload = ?::jsonb, hash = ? WHERE tenant_id = ? AND seq = ?', [JSON.stringify(payload), prev, tenant, e.seq]);
        }
      });
      return events.slice(from - 1);
    },
    /** Puts rows back as they were. */
    async restore(original: EventRow[]): Promise<void> {
      await tamper(async (trx) => {
        for (const e of original)
          await trx.raw('UPDATE events SET payload = ?::jsonb, hash = ? WHERE tenant_id = ? AND seq = ?', [JSON.stringify(e.payload), e.hash, tenant, e.seq]);
      });
    },
    /** Appends an event copied from the last one with a made-up hash, and moves the head. Returns its seq. */
    async appendMadeUp(hash: string): Promise<number> {
      const events = await rows();
      const last = events[events.length - 1]!;
      const seq = Number(last.seq) + 1;
      await tamper(async (trx) => {
        await trx.raw(
          `INSERT INTO events (tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, hash)
           VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)`,
          [
            tenant,
            seq,
            randomUUID(),
            last.type,
            last.aggregate_type,
            last.aggregate_id,
            JSON.stringify(last.payload),
            JSON.stringify(last.metadata),
            last.created_at,
            hash,
          ],
        );
        await trx.raw('UPDATE event_heads SET last_seq = ? WHERE tenant_id = ?', [seq, tenant]);
      });
      return seq;
    },
    async dropAppended(seq: number): Promise<void> {
      await tamper(async (trx) => {
        await trx.raw('DELETE FROM events WHERE tenant_id = ? AND seq = ?', [tenant, seq]);
        await trx.raw('UPDATE event_heads SET last_seq = ? WHERE tenant_id = ?', [seq - 1, tenant]);
      });
    },
    tamper,
  };
}

/** A version-2 checkpoint of `seq` and `hash` signed by `by` (an attacker's key), as a row of audit_checkpoints. */
function forgedRow(by: Signer, tenant: string, seq: number, hash: string, prev: string | null) {
  const statement = { version: 2, tenant_id: tenant, seq, hash, signed_at: new Date(Date.now() + 60_000).toISOString(), prev_checkpoint: prev };
  return { ...statement, id: randomUUID(), kid: by.kid, signature: by.sign(signedBytes(statement)) };
}

describe('audit evidence against the database administrator: the service signs only what extends what it signed', function () {
  this.timeout(600_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let db: Knex;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const as = () => ({ key });
  const say = (i: number) => t.client.post('/api/conversations', { channel_id: ch.id, body: `Hello ${i}`, contact: { email: `c${i}@example.com` } }, as());
  let ch: { id: string; secret: string };

  before(async function () {
    // The attacks rewrite the Postgres log, so this file runs on Postgres even with TEST_EVENT_STORE=eventstoredb
    // (EventStoreDB's streams have no update or delete for an attacker to use; audit-verify.e2e.test.ts shows what stands in).
    t = await startTestService('audit-guard', { env: { EVENTSTORE_URL: undefined } });
    db = t.testDb.db;
    env = childEnv({ DATABASE_URL: t.testDb.url, LOG_LEVEL: 'warn', EVENTSTORE_URL: undefined });
    owner = await newWorkspace(t);
    ch = await createChannel(t, owner);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'audit:read'])).secret;
    for (let i = 0; i < 8; i++) expect((await say(i)).status).to.equal(201);
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-audit-guard-'));
  });
  after(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const checkpoint = async () => {
    const r = await t.client.get('/api/audit/checkpoint', as());
    expect(r.status, r.text).to.equal(200);
    return r.body as Checkpoint;
  };
  const brokenLines = () => t.logs.filter((l) => l.includes(`audit chain broken: workspace ${owner.workspaceId}`));
  const metricLine = async () => {
    const m = await t.client.get('/metrics');
    return m.text.split('\n').find((l) => l.startsWith(`service_audit_chain_broken{workspace="${owner.workspaceId}"}`));
  };
  const expectBroken = async (res: { status: number; text: string; body: { errors: { code: string; message: string }[] } }, seq: number) => {
    expect(res.status, res.text).to.equal(409);
    expect(res.body.errors[0]!.code).to.equal('audit_chain_broken');
    expect(res.body.errors[0]!.message).to.include(`first failing seq ${seq}:`);
  };

  it('refuses to sign a rewritten history with recomputed hashes: 409 audit_chain_broken naming the seq of its last checkpoint, for the checkpoint and the export; one error line and the metric until the log is restored', async () => {
    const kept = await checkpoint();
    const a = attacker(db, owner.workspaceId);
    const original = await a.rewrite(3);
    try {
      await expectBroken(await t.client.get('/api/audit/checkpoint', as()), kept.seq);
      // The export is refused before its first byte: a JSON error, not a stream.
      const exp = await t.client.get('/api/audit/export', as());
      await expectBroken(exp, kept.seq);
      expect(exp.headers.get('content-type')).to.match(/application\/json/);
      // The scheduled worker signs nothing for it either.
      const worker = t.service.workers.find((w) => w.name === 'audit-checkpoints') as unknown as { tick(): Promise<number> };
      const before = await db('audit_checkpoints').where({ tenant_id: owner.workspaceId }).count<{ n: string }[]>({ n: '*' });
      expect((await say(100)).status).to.equal(201);
      await worker.tick();
      expect(await db('audit_checkpoints').where({ tenant_id: owner.workspaceId }).count<{ n: string }[]>({ n: '*' })).to.deep.equal(before);
      await expectBroken(await t.client.get('/api/audit/checkpoint', as()), kept.seq);
      // Said once, however often it is asked.
      expect(brokenLines(), t.logs.join('')).to.have.length(1);
      expect(JSON.parse(brokenLines()[0]!)).to.include({ level: 50, tenant_id: owner.workspaceId, seq: kept.seq });
      expect(await metricLine()).to.equal(`service_audit_chain_broken{workspace="${owner.workspaceId}"} 1`);
    } finally {
      await a.restore(original);
    }
    // Restored: it signs again, says so once, and the series is gone.
    const again = await checkpoint();
    expect(again.seq).to.be.greaterThan(kept.seq);
    expect(t.logs.filter((l) => l.includes(`audit chain holds again: workspace ${owner.workspaceId}`))).to.have.length(1);
    expect(await metricLine()).to.equal(undefined);
  });

  it('refuses to sign a made-up hash appended at the head, naming that seq', async () => {
    const kept = await checkpoint();
    const a = attacker(db, owner.workspaceId);
    const seq = await a.appendMadeUp('ab'.repeat(32));
    expect(seq).to.equal(kept.seq + 1);
    try {
      await expectBroken(await t.client.get('/api/audit/checkpoint', as()), seq);
    } finally {
      await a.dropAppended(seq);
    }
    expect((await checkpoint()).seq).to.equal(kept.seq);
  });

  it('refuses an export whose range holds an event without a hash, before the first byte: 409 audit_chain_incomplete naming it, mid-range or last', async () => {
    const kept = await checkpoint();
    const a = attacker(db, owner.workspaceId);
    // A hash stripped from an event the last checkpoint covers: the check from that checkpoint never reads it.
    for (const seq of [3, kept.seq]) {
      const original = (await a.rows())[seq - 1]!;
      await a.tamper((trx) => trx.raw('UPDATE events SET hash = NULL WHERE tenant_id = ? AND seq = ?', [owner.workspaceId, seq]));
      try {
        const exp = await t.client.get('/api/audit/export', as());
        expect(exp.status, `seq ${seq}: ${exp.text.slice(0, 300)}`).to.equal(409);
        expect(exp.headers.get('content-type')).to.match(/application\/json/);
        expect(exp.body.errors[0]).to.include({ code: 'audit_chain_incomplete' });
        expect(exp.body.errors[0].message).to.include(`seq ${seq} `);
      } finally {
        await a.restore([original]);
      }
    }
    expect((await t.client.get('/api/audit/export', as())).status).to.equal(200);
  });

  it('issues version-2 checkpoints, each naming the one before it; one deleted from the table fails `audit verify` at the next', async () => {
    const first = await checkpoint();
    expect((await say(200)).status).to.equal(201);
    const second = await checkpoint();
    expect((await say(201)).status).to.equal(201);
    const third = await checkpoint();
    for (const c of [first, second, third]) expect(c).to.include({ version: 2 });
    expect(second.prev_checkpoint).to.equal(checkpointDigest(first));
    expect(third.prev_checkpoint).to.equal(checkpointDigest(second));
    const jwk = ((await t.client.get('/api/audit/keys', as())).body as { keys: { kid: string; x: string }[] }).keys.find((k) => k.kid === third.kid)!;
    expect(checkpointHolds(third, jwk.x)).to.equal(true);
    expect(checkpointHolds({ ...third, prev_checkpoint: checkpointDigest(first) }, jwk.x), 'the predecessor is signed').to.equal(false);
    // The list answers them as issued, newest first.
    const list = await t.client.get('/api/audit/checkpoints?per_page=3', as());
    expect(list.body.data).to.deep.equal([third, second, first]);

    expect((await runCli(['audit', 'verify'], env)).exit.code).to.equal(0);
    const row = await db('audit_checkpoints').where({ tenant_id: owner.workspaceId, id: second.id }).first();
    await db('audit_checkpoints').where({ tenant_id: owner.workspaceId, id: second.id }).delete();
    try {
      const r = await runCli(['audit', 'verify'], env);
      expect(r.exit.code, r.stdout).to.equal(1);
      expect(r.stderr).to.include(`workspace ${owner.workspaceId}: first failing seq ${third.seq}:`);
      expect(r.stderr).to.match(/names a predecessor .* that is not the checkpoint stored before it: a checkpoint was deleted or replaced/);
    } finally {
      await db('audit_checkpoints').insert(row);
    }
  });

  it("--trusted catches the rewrite whatever the database says: after DELETE FROM audit_checkpoints (the service, without a witness, then signs the forged head) and with an attacker's key and checkpoint inserted", async () => {
    const kept = await checkpoint();
    const keptFile = path.join(dir, 'kept.ndjson');
    await writeFile(keptFile, `${JSON.stringify(kept)}\n`);
    const keysFile = path.join(dir, 'keys.json');
    await writeFile(keysFile, (await t.client.get('/api/audit/keys', as())).text);
    const a = attacker(db, owner.workspaceId);
    const savedCheckpoints = await db('audit_checkpoints').select('*');
    const original = await a.rewrite(4);
    const trusted = (extra: string[] = []) => runCli(['audit', 'verify', '--trusted', keptFile, ...extra], env);
    const expectCaught = async (r: Awaited<ReturnType<typeof runCli>>) => {
      expect(r.exit.code, `${r.stdout}\n${r.stderr}`).to.equal(1);
      expect(r.stderr).to.include(`workspace ${owner.workspaceId}: first failing seq ${kept.seq}:`);
      expect(r.stderr).to.match(/the checkpoint kept in --trusted line 1 signed \(the log was rewritten\)/);
    };
    try {
      // The table emptied: the database no longer says anything was signed.
      await a.tamper((trx) => trx.raw('DELETE FROM audit_checkpoints'));
      await expectCaught(await trusted());
      // Without a witness the service has no memory left of what it signed: it signs the forged head, and its fresh
      // export verifies with the genuine key. The checkpoint the auditor kept does not reproduce.
      const res = await fetch(`${t.service.url}/api/audit/export`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).to.equal(200);
      const file = path.join(dir, 'forged-export.ndjson');
      await writeFile(file, await res.text());
      expect((await runCli(['audit', 'verify', '--file', file, '--keys', keysFile], env)).exit.code).to.equal(0);
      const offline = await runCli(['audit', 'verify', '--file', file, '--keys', keysFile, '--trusted', keptFile], env);
      expect(offline.exit.code, offline.stdout).to.equal(1);
      expect(offline.stderr).to.include(`workspace ${owner.workspaceId}: first failing seq ${kept.seq} (line ${kept.seq + 1}):`);
      expect(offline.stderr).to.match(/checkpoint you kept \(--trusted line 1\): the log was rewritten/);

      // An attacker's key and a checkpoint of the forged head signed with it, named by its own thumbprint: the database
      // is consistent again, the kept checkpoint still is not reproduced, and the service will not take that checkpoint as its own.
      const evil = signerOf(generateKeyPairSync('ed25519').privateKey);
      const head = (await a.rows()).at(-1)!;
      const latest = (await db('audit_checkpoints').where({ tenant_id: owner.workspaceId }).orderBy('signed_at', 'desc').first()) as Checkpoint & {
        signed_at: Date;
      };
      const prev = checkpointDigest({ ...latest, seq: Number(latest.seq), signed_at: latest.signed_at.toISOString() });
      await db('audit_signing_keys').insert({ kid: evil.kid, jwk: JSON.stringify(evil.publicJwk) });
      await db('audit_checkpoints').insert(forgedRow(evil, owner.workspaceId, Number(head.seq), head.hash, prev));
      await expectCaught(await trusted());
      await expectBroken(await t.client.get('/api/audit/checkpoint', as()), Number(head.seq));
      expect((await t.client.get('/api/audit/checkpoint', as())).body.errors[0].message).to.match(/neither this service's nor among AUDIT_TRUSTED_KEYS/);
    } finally {
      await a.restore(original);
      await db('audit_checkpoints').delete();
      await db('audit_checkpoints').insert(savedCheckpoints);
      await db('audit_signing_keys').whereNot({ kid: kept.kid }).delete();
    }
    const r = await runCli(['audit', 'verify', '--trusted', keptFile], env);
    expect(r.exit.code, r.stderr).to.equal(0);
    expect(r.json).to.include({ verified: true, trusted: 1 });
  });

  it("neither serves nor trusts a key row whose kid is not its key's thumbprint (an attacker's key under the genuine kid)", async () => {
    const genuine = ((await t.client.get('/api/audit/keys', as())).body as { keys: { kid: string; x: string }[]; current_kid: string }).keys;
    const evil = signerOf(generateKeyPairSync('ed25519').privateKey);
    // Under a kid of its own that is not its thumbprint (the genuine kid's row is already there).
    const lying = createHash('sha256').update('not a thumbprint').digest('base64url');
    await db('audit_signing_keys').insert({ kid: lying, jwk: JSON.stringify({ ...evil.publicJwk, kid: lying }) });
    try {
      const served = await t.client.get('/api/audit/keys', as());
      expect(served.status).to.equal(200);
      expect(served.body.keys).to.deep.equal(genuine);
      expect(t.logs.some((l) => l.includes(`the row of kid ${lying} is not served`))).to.equal(true);
      const r = await runCli(['audit', 'verify'], env);
      expect(r.exit.code, r.stdout).to.equal(1);
      expect(r.stderr).to.include(`audit_signing_keys: kid ${lying} is not the service's: its kid ${lying} is not its RFC 7638 thumbprint`);
      expect(r.json.refused_keys).to.have.length(1);
    } finally {
      await db('audit_signing_keys').where({ kid: lying }).delete();
    }
  });
});

describe('audit evidence: a witness folder outside the database (AUDIT_WITNESS_DIR)', function () {
  this.timeout(600_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let witness: string;
  const as = () => ({ key });

  before(async function () {
    witness = await mkdtemp(path.join(os.tmpdir(), 'cs-audit-witness-'));
    // On Postgres in every mode, as above: the rewrite is made in the Postgres log.
    t = await startTestService('audit-witness', { env: { AUDIT_WITNESS_DIR: witness, EVENTSTORE_URL: undefined } });
    owner = await newWorkspace(t);
    const ch = await createChannel(t, owner);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'audit:read'])).secret;
    for (let i = 0; i < 5; i++) {
      const r = await t.client.post('/api/conversations', { channel_id: ch.id, body: `Hi ${i}`, contact: { email: `w${i}@example.com` } }, as());
      expect(r.status).to.equal(201);
    }
  });
  after(async () => {
    await t?.close();
    if (witness) await rm(witness, { recursive: true, force: true });
  });

  it("appends every checkpoint to the workspace's file as served, reads its previous one from there: after DELETE FROM audit_checkpoints a rewrite is still refused, and `audit verify` reads the witness", async () => {
    const first = (await t.client.get('/api/audit/checkpoint', as())).body as Checkpoint;
    const exported = await fetch(`${t.service.url}/api/audit/export?after_seq=1&to_seq=3`, { headers: { authorization: `Bearer ${key}` } });
    expect(exported.status).to.equal(200);
    const fromExport = JSON.parse((await exported.text()).trimEnd().split('\n').at(-1)!) as Omit<Checkpoint, 'id'>;
    const file = path.join(witness, `${owner.workspaceId}.ndjson`);
    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Checkpoint);
    expect(lines).to.have.length(2);
    expect(lines[0]).to.deep.equal(first);
    const { id: _id, ...second } = lines[1]!;
    expect(second).to.deep.equal(fromExport);
    expect(lines[1]!.prev_checkpoint).to.equal(checkpointDigest(first));
    expect((await t.client.get('/api/audit/checkpoints', as())).body.data).to.deep.equal([lines[1], lines[0]]);

    const a = attacker(t.testDb.db, owner.workspaceId);
    const original = await a.rewrite(2);
    await a.tamper((trx) => trx.raw('DELETE FROM audit_checkpoints'));
    const env = childEnv({ DATABASE_URL: t.testDb.url, LOG_LEVEL: 'warn', AUDIT_WITNESS_DIR: witness });
    try {
      // The table no longer remembers; the witness does: its last line (seq 3) no longer holds.
      const refused = await t.client.get('/api/audit/checkpoint', as());
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.errors[0]).to.include({ code: 'audit_chain_broken' });
      expect(refused.body.errors[0].message).to.include('first failing seq 3:');
      const r = await runCli(['audit', 'verify'], env);
      expect(r.exit.code, r.stdout).to.equal(1);
      expect(r.stderr).to.match(new RegExp(`workspace ${owner.workspaceId}: first failing seq 3: .*the checkpoint kept in the witness signed`));
      // Without the witness, the emptied database says nothing is wrong: the witness is what remembers.
      expect((await runCli(['audit', 'verify'], childEnv({ DATABASE_URL: t.testDb.url, LOG_LEVEL: 'warn' }))).exit.code).to.equal(0);
    } finally {
      await a.restore(original);
    }
    // Restored (the table still empty): the witness's last checkpoint holds again, and the next names it; the
    // table's chain of checkpoints shows the two deleted from it.
    const next = (await t.client.get('/api/audit/checkpoint', as())).body as Checkpoint;
    expect(next.prev_checkpoint).to.equal(checkpointDigest(lines[1]!));
    const r = await runCli(['audit', 'verify'], env);
    expect(r.exit.code, r.stdout).to.equal(1);
    expect(r.stderr).to.match(
      new RegExp(`first failing seq ${next.seq}: the checkpoint ${next.id} names a predecessor .* a checkpoint was deleted or replaced`),
    );
  });
});
