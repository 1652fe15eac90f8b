// Signed checkpoints, the public keys, and the export an auditor verifies
// offline (issue 29, items 3 to 5): checkpoints verify with nothing but the
// published key; the NDJSON export verifies with the offline verifier
// (src/audit-verify.ts, run as the CLI's --file mode and as a program of its
// own), and one flipped byte in any line fails it; keys rotate and the old one
// stays listed; a checkpoint is issued on schedule for each workspace whose log moved.
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import canonicalize from 'canonicalize';
import { keysFrom, verifyExport } from '../../src/audit-verify.js';
import { jwkThumbprint, signerOf } from '../../src/platform/crypto/signing.js';
import { checkpointDigest } from '../../src/capabilities/audit-chain/audit-chain.checkpoints.js';
import type { ManualClock } from '../../src/platform/clock.js';
import { createChannel } from '../support/channels.js';
import { childEnv, REPO_ROOT, runCli, spawnNode, exitWithin } from '../support/process.js';
import { testEventStoreEnv } from '../support/event-store.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { startService } from '../../src/service.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { Client } from '../support/http.js';

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
}

/** Verified with node:crypto and `canonicalize` alone, as docs/audit.md says (version 2: the predecessor is signed too). */
const holds = (
  jwk: Jwk,
  c: { version: number; tenant_id: string; seq: number; hash: string; signed_at: string; prev_checkpoint?: string | null; signature: string },
) =>
  verify(
    null,
    Buffer.from(
      canonicalize({ version: c.version, tenant_id: c.tenant_id, seq: c.seq, hash: c.hash, signed_at: c.signed_at, prev_checkpoint: c.prev_checkpoint })!,
      'utf8',
    ),
    createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }),
    Buffer.from(c.signature, 'base64url'),
  );

describe('audit checkpoints, keys and the offline-verifiable export', function () {
  this.timeout(600_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let keyId: string;
  let dir: string;
  let ch: { id: string; secret: string };
  const as = () => ({ key });

  // The key a second process rotates to: this process trusts it (AUDIT_TRUSTED_KEYS), as an operator configures
  // every process of a database after a rotation, so that the checkpoints each signs extend the other's.
  const rotated = generateKeyPairSync('ed25519').privateKey;
  before(async () => {
    t = await startTestService('audit-export', { env: { AUDIT_TRUSTED_KEYS: JSON.stringify({ keys: [signerOf(rotated).publicJwk] }) } });
    owner = await newWorkspace(t);
    ch = await createChannel(t, owner);
    const minted = await mintKey(t, owner, ['conversations:read', 'conversations:write', 'settings:write', 'audit:read']);
    key = minted.secret;
    keyId = minted.id;
    for (let i = 0; i < 6; i++) {
      const c = await t.client.post(
        '/api/conversations',
        { channel_id: ch.id, body: `Body ${i} ✓ é 😀`, subject: `S${i}`, contact: { email: `c${i}@example.com` } },
        as(),
      );
      expect(c.status, c.text).to.equal(201);
    }
    // A name stored in plain text, not sealed: the export's lines carry it as UTF-8 (2, 3 and 4 bytes a character).
    const tag = await t.client.post('/api/tags', { name: 'Réclamation — ✓ 😀' }, as());
    expect(tag.status, tag.text).to.equal(201);
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-audit-'));
  });
  after(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const keys = async () => {
    const r = await t.client.get('/api/audit/keys', as());
    expect(r.status, r.text).to.equal(200);
    return r.body as { keys: Jwk[]; current_kid: string };
  };
  const head = () => t.service.deps.store.head(owner.workspaceId);
  /** The hash the log holds for a seq, read through the service's store (whichever it is). */
  const storedHash = async (seq: number) => (await t.service.deps.store.readTenant(owner.workspaceId, seq - 1, 1, { sealed: true }))[0]?.hash;

  it('publishes its Ed25519 public key as a JWK named by its RFC 7638 thumbprint', async () => {
    const k = await keys();
    expect(k.keys).to.have.length(1);
    expect(k.keys[0]).to.include({ kty: 'OKP', crv: 'Ed25519', kid: k.current_kid, alg: 'EdDSA', use: 'sig' });
    expect(k.keys[0]!.kid).to.equal(jwkThumbprint(k.keys[0]!.x));
  });

  it('signs the current head; the signature verifies with nothing but that key; the same head is answered with the same checkpoint', async () => {
    const c = await t.client.get('/api/audit/checkpoint', as());
    expect(c.status, c.text).to.equal(200);
    expect(c.body).to.include({ type: 'audit_checkpoint', tenant_id: owner.workspaceId, seq: await head() });
    expect(c.body.hash)
      .to.be.a('string')
      .and.equal(await storedHash(c.body.seq));
    const jwk = (await keys()).keys.find((k) => k.kid === c.body.kid)!;
    expect(holds(jwk, c.body)).to.equal(true);
    expect(holds(jwk, { ...c.body, seq: c.body.seq - 1 })).to.equal(false);
    const again = await t.client.get('/api/audit/checkpoint', as());
    expect(again.body).to.deep.equal(c.body);
    // The log moves (and time passes): a new checkpoint; both are listed, newest first.
    (t.clock as ManualClock).advance(1000);
    await t.client.post('/api/conversations', { channel_id: ch.id, body: 'later', contact: { email: 'late@example.com' } }, as());
    const later = await t.client.get('/api/audit/checkpoint', as());
    expect(later.body.seq).to.be.greaterThan(c.body.seq);
    const list = await t.client.get('/api/audit/checkpoints?per_page=1', as());
    expect(list.status, list.text).to.equal(200);
    expect(list.body.data).to.deep.equal([later.body]);
    const rest = await t.client.get(`/api/audit/checkpoints?starting_after=${list.body.pages.next.starting_after}`, as());
    expect(rest.body.data.map((x: { id: string }) => x.id)).to.include(c.body.id);
  });

  it("is owners' and admins' only: an agent's key and a viewer's session get 403", async () => {
    const agent = await addMember(t, owner, 'agent');
    const viewer = await addMember(t, owner, 'viewer');
    const agentKey = (await mintKey(t, agent, ['conversations:read'])).secret;
    const admin = await addMember(t, owner, 'admin');
    for (const p of ['/api/audit/checkpoint', '/api/audit/checkpoints', '/api/audit/keys', '/api/audit/export']) {
      const a = await t.client.get(p, { key: agentKey });
      expect(a.status, `${p} ${a.text}`).to.equal(403);
      expect(a.body.errors[0].code).to.equal('missing_scope');
      const v = await t.client.get(p, { cookie: viewer.cookie, workspace: owner.workspaceId });
      expect(v.status, p).to.equal(403);
    }
    const ok = await t.client.get('/api/audit/keys', { cookie: admin.cookie, workspace: owner.workspaceId });
    expect(ok.status, ok.text).to.equal(200);
  });

  it('exports the log as NDJSON: a header, every event as stored with its hash, a signed checkpoint; it verifies offline (CLI and standalone)', async () => {
    const res = await fetch(`${t.service.url}/api/audit/export`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/x-ndjson/);
    const text = await res.text();
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const n = await head();
    expect(lines).to.have.length(n + 2);
    expect(lines[0]).to.deep.equal({ type: 'audit_export', tenant_id: owner.workspaceId, after_seq: 0, to_seq: n, prev_hash: '0'.repeat(64) });
    expect(lines[1]).to.include({ seq: 1, tenant_id: owner.workspaceId });
    // As stored: personal fields sealed, never in plaintext.
    expect(text).to.not.include('Body 0');
    expect(lines.some((l) => l.payload?.name === 'Réclamation — ✓ 😀')).to.equal(true);
    expect(lines.at(-1)).to.have.all.keys('type', 'version', 'tenant_id', 'seq', 'hash', 'signed_at', 'prev_checkpoint', 'kid', 'signature');
    expect(lines.at(-1)).to.include({ type: 'audit_checkpoint', seq: n, hash: lines.at(-2).hash });

    const file = path.join(dir, 'export.ndjson');
    const keysFile = path.join(dir, 'keys.json');
    await writeFile(file, text);
    await writeFile(keysFile, JSON.stringify(await keys()));
    const env = childEnv({ LOG_LEVEL: 'warn', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }); // offline: no database is reached
    const cli = await runCli(['audit', 'verify', '--file', file, '--keys', keysFile], env);
    expect(cli.exit.code, cli.stderr).to.equal(0);
    expect(cli.json).to.include({ verified: true });
    expect(cli.json.exports).to.deep.equal([
      { workspace_id: owner.workspaceId, after_seq: 0, to_seq: n, events: n, kid: lines.at(-1).kid, signed_at: lines.at(-1).signed_at, version: 2 },
    ]);
    // The verifier as a program of its own, the way an auditor runs it.
    const alone = spawnNode('src/audit-verify.ts', ['--file', file, '--keys', keysFile], childEnv({}));
    const exit = await exitWithin(alone, 60_000, 'audit-verify.ts');
    expect(exit.code, alone.stderr()).to.equal(0);
    expect(JSON.parse(alone.stdout()).verified).to.equal(true);

    // Taking a copy of the whole log is in the audit log, with who took it.
    const entries = await t.client.get('/api/audit_log?action=audit_log.exported', as());
    expect(entries.status, entries.text).to.equal(200);
    expect(entries.body.data).to.have.length(1);
    expect(entries.body.data[0]).to.deep.include({ action: 'audit_log.exported', seq: null, aggregate_type: 'workspace', aggregate_id: owner.workspaceId });
    expect(entries.body.data[0].actor).to.deep.equal({ type: 'api_key', id: keyId, member_id: owner.memberId });

    // One flipped byte: the CLI exits 1 naming the workspace, the seq and the line.
    const bytes = Buffer.from(text, 'utf8');
    const at = bytes.indexOf(Buffer.from('"seq":3,')) + 40;
    const flipped = Buffer.from(bytes);
    flipped[at] = flipped[at]! ^ 0x01;
    await writeFile(file, flipped);
    const bad = await runCli(['audit', 'verify', '--file', file, '--keys', keysFile], env);
    expect(bad.exit.code, bad.stdout).to.equal(1);
    expect(bad.stderr).to.include(`workspace ${owner.workspaceId}: first failing seq 3 (line 4)`);
  });

  it('fails on one flipped byte anywhere in any line (header, events, checkpoint, line ends)', async () => {
    const text = await (await fetch(`${t.service.url}/api/audit/export`, { headers: { authorization: `Bearer ${key}` } })).text();
    const k = keysFrom(await keys());
    const bytes = Buffer.from(text, 'utf8');
    expect((await verifyExport(bytes, k)).verified).to.equal(true);
    // Every line: its first and last bytes, its line feed, and bytes spread over it.
    const positions = new Set<number>();
    let start = 0;
    for (let nl = bytes.indexOf(0x0a); nl >= 0; start = nl + 1, nl = bytes.indexOf(0x0a, start)) {
      for (let i = 0; i < 24; i++) positions.add(start + Math.floor(((nl - start) * i) / 24));
      positions.add(nl - 1);
      positions.add(nl);
    }
    const passed: number[] = [];
    for (const at of positions) {
      for (const mask of [0x01, 0x20]) {
        const flipped = Buffer.from(bytes);
        flipped[at] = flipped[at]! ^ mask;
        const r = await verifyExport(flipped, k);
        if (r.verified) passed.push(at);
        else expect(r.failure!.line).to.be.greaterThan(0);
      }
    }
    expect(passed, 'flips that still verified').to.deep.equal([]);
    expect(positions.size).to.be.greaterThan(200);
  });

  it('exports a range (after_seq, to_seq) that verifies on its own, an empty one too, and refuses a range ahead of the log', async () => {
    const n = await head();
    const k = keysFrom(await keys());
    const part = await fetch(`${t.service.url}/api/audit/export?after_seq=3&to_seq=${n - 2}`, { headers: { authorization: `Bearer ${key}` } });
    const lines = (await part.text()).trimEnd().split('\n');
    expect(lines).to.have.length(n - 5 + 2);
    expect(JSON.parse(lines[0]!).prev_hash)
      .to.be.a('string')
      .and.equal(await storedHash(3));
    expect((await verifyExport(Buffer.from(`${lines.join('\n')}\n`), k)).verified).to.equal(true);
    const empty = await (await fetch(`${t.service.url}/api/audit/export?after_seq=${n}`, { headers: { authorization: `Bearer ${key}` } })).text();
    expect(empty.trimEnd().split('\n')).to.have.length(2);
    expect((await verifyExport(Buffer.from(empty), k)).verified).to.equal(true);
    for (const [q, code, field] of [
      [`after_seq=${n + 1}`, 'seq_ahead_of_log', 'after_seq'],
      [`to_seq=${n + 1}`, 'seq_ahead_of_log', 'to_seq'],
      ['after_seq=4&to_seq=3', 'invalid_seq_range', 'to_seq'],
      ['to_seq=-1', 'invalid_field', 'to_seq'],
      ['from=1', 'unknown_field', 'from'],
    ]) {
      const r = await t.client.get(`/api/audit/export?${q}`, as());
      expect(r.status, `${q}: ${r.text}`).to.equal(400);
      expect(r.body.errors[0]).to.include({ code, field });
    }
  });

  it('the offline verifier depends on nothing of the service: node: modules and canonicalize only', async () => {
    const source = await readFile(path.join(REPO_ROOT, 'src/audit-verify.ts'), 'utf8');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).to.be.greaterThan(0);
    for (const i of imports) expect(i === 'canonicalize' || i!.startsWith('node:'), i).to.equal(true);
    expect(source).to.not.match(/import\(/);
  });

  it('rotates keys: another key signs from then on, the old one stays listed, and what it signed still verifies', async () => {
    const before = await t.client.get('/api/audit/checkpoint', as());
    const seed = rotated.export({ format: 'pem', type: 'pkcs8' }) as string;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cs-audit-rotated-'));
    const config = (trusted: string | undefined) =>
      loadConfig({
        DATABASE_URL: t.testDb.url,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WORKERS: 'off',
        SERVICE_AUDIT_SIGNING_KEY: seed,
        AUDIT_TRUSTED_KEYS: trusted,
        // the run's store, as the first process has it
        ...testEventStoreEnv(t.testDb.url),
      });
    await t.client.post('/api/conversations', { channel_id: ch.id, body: 'after rotation', contact: { email: 'rot@example.com' } }, as());
    // Rotated without saying which key came before: the service cannot tell the last checkpoint from one signed by a
    // key someone added to the database, and signs nothing.
    const unsure = await startService({ config: config(undefined), log: createLogger('silent') });
    try {
      const refused = await new Client(unsure.url).get('/api/audit/checkpoint', as());
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.errors[0]).to.include({ code: 'audit_chain_broken' });
      expect(refused.body.errors[0].message).to.include(`first failing seq ${before.body.seq}:`);
    } finally {
      await unsure.close();
    }
    // A second process on the same database, configured with the new key and the old one's public half.
    const second = await startService({ config: config(JSON.stringify(await keys())), log: createLogger('silent') });
    try {
      const client = new Client(second.url);
      const after = await client.get('/api/audit/checkpoint', as());
      expect(after.status, after.text).to.equal(200);
      expect(after.body.prev_checkpoint).to.equal(checkpointDigest(before.body));
      expect(after.body.kid).to.not.equal(before.body.kid);
      const set = (await client.get('/api/audit/keys', as())).body as { keys: Jwk[]; current_kid: string };
      expect(set.current_kid).to.equal(after.body.kid);
      expect(set.keys.map((k) => k.kid)).to.include.members([before.body.kid, after.body.kid]);
      for (const c of [before.body, after.body])
        expect(
          holds(
            set.keys.find((k) => k.kid === c.kid)!,
            c,
          ),
        ).to.equal(true);
      const cli = await runCli(['audit', 'verify'], childEnv({ DATABASE_URL: t.testDb.url, LOG_LEVEL: 'warn' }));
      expect(cli.exit.code, cli.stderr).to.equal(0);
      expect(cli.json.checkpoints).to.be.greaterThan(2);
    } finally {
      await second.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('issues a checkpoint on schedule for each workspace whose log moved, and none for one that did not', async () => {
    const worker = t.service.workers.find((w) => w.name === 'audit-checkpoints') as unknown as { tick(): Promise<number> };
    const quiet = await newWorkspace(t, 'Quiet');
    await worker.tick();
    const count = async (tenant: string) =>
      Number((await t.testDb.db('audit_checkpoints').where({ tenant_id: tenant }).count<{ n: string }[]>({ n: '*' }))[0]!.n);
    const [ownerBefore, quietBefore] = [await count(owner.workspaceId), await count(quiet.workspaceId)];
    expect(quietBefore).to.equal(1);
    expect(await worker.tick()).to.equal(0);
    await t.client.post('/api/conversations', { channel_id: ch.id, body: 'moves the log', contact: { email: 'move@example.com' } }, as());
    expect(await worker.tick()).to.equal(1);
    expect(await count(owner.workspaceId)).to.equal(ownerBefore + 1);
    expect(await count(quiet.workspaceId)).to.equal(quietBefore);
    const newest = await t.testDb.db('audit_checkpoints').where({ tenant_id: owner.workspaceId }).max<{ seq: string }[]>({ seq: 'seq' });
    expect(Number(newest[0]!.seq)).to.equal(await head());
  });
});
