// The signed door's memory of accepted posts (inbound_signatures): the signatures
// of posts accepted while a statement remembering others is in flight go in the
// next one together, rows of every workspace in one statement (as the owner
// role). Each row must keep its own workspace, channel and filing, and one
// signature twice at once must not fail the statement both would share.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ChannelSecrets } from '../../src/capabilities/channels/channel-secrets.js';
import { createSealer } from '../../src/platform/crypto/seal.js';
import { createTestDb, type TestDb } from '../support/db.js';

describe("the signed door's memory of signatures (Postgres)", () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb('signature_memory');
  });
  after(() => t?.drop());

  const until = () => new Date(Date.now() + 10 * 60_000);

  it('remembers the posts of several workspaces made at once, each row with its own workspace, channel and filing', async () => {
    const secrets = new ChannelSecrets(createSealer({}));
    const channels = [randomUUID(), randomUUID(), randomUUID()].map((channelId) => ({ tenantId: randomUUID(), channelId }));
    // The first runs at once, the others wait for it and go together: one statement with rows of three workspaces.
    const posts = Array.from({ length: 24 }, (_, i) => ({
      ...channels[i % 3]!,
      signature: randomBytes(32).toString('hex'),
      until: until(),
      first: { conversationId: randomUUID(), partId: i % 2 ? randomUUID() : null },
    }));
    await Promise.all(posts.map((p) => secrets.rememberSignature(t.db, p)));
    const rows = (await t.db('inbound_signatures').whereIn(
      'channel_id',
      channels.map((c) => c.channelId),
    )) as { tenant_id: string; channel_id: string; conversation_id: string; part_id: string | null; expires_at: Date }[];
    expect(rows).to.have.length(posts.length);
    for (const p of posts) {
      const row = rows.find((r) => r.conversation_id === p.first.conversationId)!;
      expect(row, p.first.conversationId).to.not.equal(undefined);
      expect(row).to.include({ tenant_id: p.tenantId, channel_id: p.channelId, part_id: p.first.partId });
      expect(row.expires_at.getTime()).to.equal(p.until.getTime());
    }
  });

  it('the same signature remembered twice at once: both settle, and the row holds the later filing', async () => {
    const secrets = new ChannelSecrets(createSealer({}));
    const channel = { tenantId: randomUUID(), channelId: randomUUID() };
    const signature = randomBytes(32).toString('hex');
    const post = (conversationId: string) => ({ ...channel, signature, until: until(), first: { conversationId, partId: null } });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    // The first runs at once; the two behind it share a signature, so they cannot share a statement (a row is
    // updated once per statement): the later waits for the batch after.
    await Promise.all([a, b, c].map((id) => secrets.rememberSignature(t.db, post(id))));
    const rows = await t.db('inbound_signatures').where({ channel_id: channel.channelId });
    expect(rows.map((r: { conversation_id: string }) => r.conversation_id)).to.deep.equal([c]);
  });
});
