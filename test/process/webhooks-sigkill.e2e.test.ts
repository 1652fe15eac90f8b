// Delivery survives a crash: SIGKILL the service while deliveries are pending
// (some claimed and in flight, some not yet claimed, some not yet dispatched),
// restart it, and find that the receiver got every event at least once.
// Duplicates are allowed and identifiable by seq.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createTestDb, type TestDb } from '../support/db.js';
import { eventsAsStored, testStoreKind } from '../support/event-store.js';
import { eventually } from '../support/events.js';
import { childEnv, runCli, signInOver, spawnService, type ServiceProcess } from '../support/process.js';
import { Receiver } from '../webhooks/receiver.js';
import { hmacHex } from '../../src/platform/crypto/hmac.js';

const EVENTS = 30;

describe('process: SIGKILL while webhook deliveries are pending', function () {
  this.timeout(360_000);
  let testDb: TestDb;
  let dataDir: string;
  let receiver: Receiver;
  let healthy = false;
  const started: ServiceProcess[] = [];
  // A failed attempt is retried after 1 s, not 30: what is checked is that every event arrives after the crash, not the schedule.
  const env = () => ({
    DATABASE_URL: testDb.url,
    DATA_DIR: dataDir,
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_BASE_SECONDS: '1',
  });

  before(async () => {
    testDb = await createTestDb('webhook_sigkill', { checkEvents: true });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cs-whkill-'));
    // Until the crash the receiver never answers, so every delivery is pending or in flight.
    receiver = await new Receiver(() => (healthy ? 200 : 'hang')).start();
  });
  after(async () => {
    for (const s of started) {
      s.kill('SIGKILL');
      await s.exited;
    }
    await receiver?.close();
    await testDb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers every pending event after a restart, at least once', async () => {
    const email = 'owner@whkill.example.com';
    const password = 'correct horse battery';
    const cli = await runCli(
      ['workspace', 'create', '--name', 'Hooks Co', '--owner-email', email, '--owner-password', password],
      childEnv({ ...env(), LOG_LEVEL: 'warn' }),
    );
    expect(cli.exit.code, cli.stderr).to.equal(0);
    const tenant: string = cli.json.workspace_id;

    const first = await spawnService(env());
    started.push(first);
    const session = await signInOver(first.client, email, password);
    const as = { cookie: session.cookie, workspace: tenant };
    const hook = await first.client.post('/api/webhooks', { url: receiver.url, event_names: ['member.invited'], description: 'crash test' }, as);
    expect(hook.status, hook.text).to.equal(201);
    const secret: string = hook.body.secret;

    for (let i = 0; i < EVENTS; i++) {
      const r = await first.client.post('/api/members/invites', { email: `p${i}@whkill.example.com`, role: 'agent' }, as);
      expect(r.status, r.text).to.equal(201);
    }
    const expected = (await eventsAsStored(testDb.db, testDb.url, testStoreKind(), tenant)).filter((e) => e.type === 'member.invited').map((e) => e.seq);
    expect(expected).to.have.length(EVENTS);
    // Some deliveries are claimed and hanging at the receiver when the process dies.
    await receiver.waitFor(1, 20_000);
    first.kill('SIGKILL');
    await first.exited;
    const pendingAtKill = await testDb
      .db('webhook_deliveries')
      .where({ tenant_id: tenant })
      .whereNot({ state: 'delivered' })
      .count<{ n: string }[]>({ n: '*' });
    expect(Number(pendingAtKill[0]!.n)).to.be.greaterThan(0);

    healthy = true;
    const second = await spawnService(env());
    started.push(second);
    await eventually(
      () => new Set(receiver.bodies().map((b) => b.seq)).size,
      (n) => n >= EVENTS,
      60_000,
    );
    const seqs = new Set<number>(receiver.bodies().map((b) => b.seq));
    expect([...seqs].sort((a, b) => a - b)).to.deep.equal(expected);
    for (const r of receiver.received) expect(r.headers['x-service-signature']).to.equal(hmacHex(secret, r.raw));
    const states = await eventually(
      () => testDb.db('webhook_deliveries').where({ tenant_id: tenant }).pluck('state'),
      (s: string[]) => s.every((x) => x === 'delivered'),
      // a hang guard: the deliveries claimed when the process died wait out their lease and a retry's backoff
      120_000,
    );
    expect(states).to.have.length(EVENTS);
  });
});
