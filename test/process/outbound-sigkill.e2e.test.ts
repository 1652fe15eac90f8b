// Outbound sending survives crashes and shares work between processes: a
// 150-contact audience chosen by tag is sent while the worker's process is
// SIGKILLed twice mid-send (then again with two service processes on one
// database, one of them killed twice). Afterwards: exactly 150 conversations,
// one per contact, 150 `sent` recipients, and the channel's bridge got 150
// distinct first parts. Small claims and a short lease (env) keep it quick;
// every wait is bounded in count and time.
import { expect } from 'chai';
import { serviceCluster } from '../support/service-cluster.js';
import { eventually, inBatches } from '../support/events.js';
import { childEnv, runCli, signInOver, type ServiceProcess } from '../support/process.js';
import { Receiver } from '../webhooks/receiver.js';

// 150: fifteen claims of ten, so each kill lands with claims taken and claims left (the audience's size only sets how
// much seeding over HTTP the test pays for).
const AUDIENCE = 150;
const KILLS_AT = [30, 75];

describe('process: outbound sending under SIGKILL', function () {
  this.timeout(600_000);
  const cluster = serviceCluster('outbound_sigkill', {
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    OUTBOUND_BATCH: '10',
    OUTBOUND_LEASE_MS: '1500',
    OUTBOUND_POLL_MS: '200',
    // Each send 40 ms apart: after the second kill's mark, 75 sends are left, over a second and a half even for two
    // processes, for the test to see the mark and kill. (At 15 ms, 65 left, two processes under a CPU hog sent them all
    // before the kill: the "killed mid-send" check failed rather than let the case pass without a kill mid-send.)
    OUTBOUND_INTERVAL_MS: '40',
  });
  const env = () => cluster.env();
  const start = () => cluster.start();
  const kill = async (s: ServiceProcess) => {
    s.kill('SIGKILL');
    await s.exited;
  };

  async function scenario(label: string, processes: number) {
    const email = `owner-${label}@outkill.example.com`;
    const password = 'correct horse battery';
    const cli = await runCli(
      ['workspace', 'create', '--name', `Outbound ${label}`, '--owner-email', email, '--owner-password', password],
      childEnv({ ...env(), LOG_LEVEL: 'warn' }),
    );
    expect(cli.exit.code, cli.stderr).to.equal(0);
    const tenant: string = cli.json.workspace_id;

    const receiver = await new Receiver().start();
    try {
      const procs: ServiceProcess[] = [];
      for (let i = 0; i < processes; i++) procs.push(await start());
      const victim = () => procs[0]!;
      const client = () => procs[procs.length - 1]!.client;
      const session = await signInOver(client(), email, password);
      const as = () => ({ cookie: session.cookie, workspace: tenant });

      const ch = await client().post(
        '/api/channels',
        { kind: 'api', name: `Bridge ${label}`, default_team_id: null, webhook_secret: 'bridge-secret-0123456789' },
        as(),
      );
      expect(ch.status, ch.text).to.equal(201);
      const channelId: string = ch.body.id;
      expect((await client().put(`/api/channels/${channelId}`, { webhook_url: receiver.url }, as())).status).to.equal(200);

      const contactIds = await inBatches(
        Array.from({ length: AUDIENCE + 5 }, (_, i) => i),
        8,
        async (i) => {
          const r = await client().post('/api/contacts', { external_id: `wa:${label}:${i}`, name: `Customer ${i}` }, as());
          expect(r.status, r.text).to.equal(201);
          return r.body.id as string;
        },
      );
      const tagged = contactIds.slice(0, AUDIENCE);
      const tagged201 = await client().post('/api/tags', { name: `Launch list ${label}` }, as());
      expect(tagged201.status, tagged201.text).to.equal(201);
      const tag: string = tagged201.body.id;
      await inBatches(tagged, 8, async (id) => {
        const r = await client().post(`/api/contacts/${id}/tags`, { tag_id: tag }, as());
        expect(r.status, r.text).to.equal(200);
      });

      const created = await client().post(
        '/api/outbound',
        { name: `Launch ${label}`, channel_id: channelId, body: 'Hello {{contact.name}}, we launched!', audience: { tag_ids: [tag] } },
        as(),
      );
      expect(created.status, created.text).to.equal(201);
      const id: string = created.body.id;
      const send = await client().post(`/api/outbound/${id}/send`, undefined, as());
      expect(send.status, send.text).to.equal(200);
      expect(send.body.counts.audience_size).to.equal(AUDIENCE);

      const sentCount = async () =>
        Number(
          (
            await cluster.testDb.db('outbound_recipients').where({ tenant_id: tenant, collection_id: id, status: 'sent' }).count<{ n: string }[]>({ n: '*' })
          )[0]!.n,
        );
      for (const at of KILLS_AT) {
        const n = await eventually(sentCount, (k) => k >= at, 60_000);
        expect(n, 'killed mid-send').to.be.lessThan(AUDIENCE);
        const dead = victim();
        await kill(dead);
        procs[0] = await start();
      }
      const final = await eventually(
        async () => (await client().get(`/api/outbound/${id}`, as())).body,
        (c: any) => c.state === 'sent',
        120_000,
      );
      expect(final.counts).to.deep.equal({ audience_size: AUDIENCE, pending: 0, sent: AUDIENCE, failed: 0, skipped: 0, cancelled: 0 });

      // Recipients: all `sent`, each with its own conversation.
      const recipients: any[] = [];
      let after: string | undefined;
      for (let page = 0; page < 10; page++) {
        const q = new URLSearchParams({ per_page: '150', status: 'sent', ...(after ? { starting_after: after } : {}) });
        const r = await client().get(`/api/outbound/${id}/recipients?${q}`, as());
        expect(r.status, r.text).to.equal(200);
        recipients.push(...r.body.data);
        after = r.body.pages.next?.starting_after;
        if (!after) break;
      }
      expect(recipients).to.have.length(AUDIENCE);
      expect(new Set(recipients.map((r) => r.contact_id))).to.deep.equal(new Set(tagged));
      expect(new Set(recipients.map((r) => r.conversation_id)).size).to.equal(AUDIENCE);

      // Conversations: exactly one a contact on the channel, one per contact.
      const convs: any[] = [];
      after = undefined;
      for (let page = 0; page < 10; page++) {
        const q = new URLSearchParams({ per_page: '150', channel_id: channelId, ...(after ? { starting_after: after } : {}) });
        const r = await client().get(`/api/conversations?${q}`, as());
        expect(r.status, r.text).to.equal(200);
        convs.push(...r.body.data);
        after = r.body.pages.next?.starting_after;
        if (!after) break;
      }
      expect(convs).to.have.length(AUDIENCE);
      expect(new Set(convs.map((c) => c.contact_id))).to.deep.equal(new Set(tagged));
      expect(new Set(convs.map((c) => c.id))).to.deep.equal(new Set(recipients.map((r) => r.conversation_id)));

      // The bridge got one distinct first part a contact (deliveries are at least once: a repeat has the same part id).
      const parts = await eventually(
        () =>
          new Map(
            receiver
              .bodies()
              .filter((b) => b.type === 'conversation_part.created')
              .map((b) => [b.payload.part_id, b]),
          ),
        (m) => m.size >= AUDIENCE,
        120_000,
      );
      expect(parts.size).to.equal(AUDIENCE);
      const byConversation = new Set([...parts.values()].map((b: any) => b.payload.conversation_id));
      expect(byConversation).to.deep.equal(new Set(convs.map((c) => c.id)));
      const texts = new Set([...parts.values()].map((b: any) => b.payload.body));
      expect(texts.size).to.equal(AUDIENCE);
      expect([...texts].every((t) => /^Hello Customer \d+, we launched!$/.test(t as string))).to.equal(true);

      for (const s of procs) await kill(s);
    } finally {
      await receiver.close();
    }
  }

  it('one process, SIGKILLed twice mid-send: 150 conversations, 150 sent recipients, 150 distinct first parts', async () => {
    await scenario('solo', 1);
  });

  it('two processes sharing the database, one SIGKILLed twice mid-send: still exactly one conversation per contact', async () => {
    await scenario('pair', 2);
  });
});
