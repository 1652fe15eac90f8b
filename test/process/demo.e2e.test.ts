// `npm run demo` against a test service, twice in a row: the first run seeds
// the workspace (owner by the CLI, agents by invites, a channel, a webhook to
// its own receiver, conversations with replies and notes: 40 here, DEMO_CONVERSATIONS,
// as every rule of the seed shows by then; 200 by default); the second adds
// nothing but a rotated key and a fresh endpoint.
import { expect } from 'chai';
import { childEnv, spawnNode, exitWithin } from '../support/process.js';
import { startTestService, type TestService } from '../support/service.js';
import { systemClock } from '../../src/platform/clock.js';

const SEEDED = 40;

interface DemoResult {
  workspace_id: string;
  key: string;
  conversations: number;
  parts: number;
  contacts: number;
  members: number;
  added: { conversations: number; parts: number };
  delivered: number;
  sla_breach: { conversation_id: string; target: string; seq: number } | null;
}

describe('npm run demo (twice against one service)', function () {
  this.timeout(360_000);
  let t: TestService;
  // Real time: the demo's SLA policy breaches 5 s after its conversation is created, by the service's own worker.
  before(async () => (t = await startTestService('demo', { clock: systemClock, env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } })));
  after(async () => t.close());

  const demo = async (): Promise<DemoResult> => {
    const p = spawnNode(
      'scripts/demo.ts',
      ['--exit'],
      childEnv({
        DEMO_URL: t.service.url,
        DEMO_RECEIVER_PORT: '0',
        DEMO_CONVERSATIONS: String(SEEDED),
        DATABASE_URL: t.testDb.url,
        DATA_DIR: t.service.deps.config.dataDir,
        LOG_LEVEL: 'warn',
      }),
    );
    const exit = await exitWithin(p, 330_000, 'demo');
    expect(exit.code, p.tail(3000)).to.equal(0);
    const line = p
      .stdout()
      .split('\n')
      .find((l) => l.startsWith('DEMO_RESULT '));
    expect(line, p.tail(3000)).to.be.a('string');
    expect(p.stdout()).to.include('/docs').and.include('ada@demo.example');
    return JSON.parse(line!.slice('DEMO_RESULT '.length)) as DemoResult;
  };

  it('seeds the workspace, and a second run doubles nothing', async () => {
    const first = await demo();
    // SEEDED on the demo bridge, one on the round-robin team's channel, routed, and one that breaches its SLA.
    expect(first.conversations).to.equal(SEEDED + 2);
    expect(first.added.conversations).to.equal(SEEDED + 2);
    expect(first.sla_breach, 'the SLA breach was seen').to.include({ target: 'first_response' });
    expect(first.members).to.equal(4);
    expect(first.contacts).to.equal(40);
    expect(first.parts).to.be.greaterThan(SEEDED * 2);
    expect(first.delivered, 'the receiver got deliveries').to.be.greaterThan(0);
    const me = await t.client.get('/api/me', { key: first.key });
    expect(me.status).to.equal(200);
    expect(me.body.workspace.name).to.equal('Demo Help Desk');
    const feedHead = async (key: string) => {
      const types: string[] = [];
      let after = 0;
      for (;;) {
        const r = await t.client.get(`/api/events?after_seq=${after}&per_page=150`, { key });
        types.push(...r.body.data.map((e: { type: string }) => e.type));
        if (!r.body.pages.next) return { seq: r.body.data.at(-1)?.seq ?? after, types };
        after = r.body.data.at(-1).seq;
      }
    };
    const before = await feedHead(first.key);

    const second = await demo();
    expect(second.workspace_id).to.equal(first.workspace_id);
    expect(second.added).to.deep.equal({ conversations: 0, parts: 0 });
    expect({ conversations: second.conversations, parts: second.parts, contacts: second.contacts, members: second.members }).to.deep.equal({
      conversations: first.conversations,
      parts: first.parts,
      contacts: first.contacts,
      members: first.members,
    });
    expect(second.sla_breach, 'the same breach, once').to.deep.equal(first.sla_breach);
    expect(second.key).to.not.equal(first.key);
    expect((await t.client.get('/api/me', { key: first.key })).status, "the first run's key was rotated").to.equal(401);
    // What the second run appended: the key's rotation, the receiver's endpoint replaced, the channel pointed at it.
    const after = await feedHead(second.key);
    const added = after.types.slice(before.types.length);
    expect([...new Set(added)].sort()).to.deep.equal(['api_key.rotated', 'channel.updated', 'webhook_endpoint.created', 'webhook_endpoint.deleted']);
  });
});
