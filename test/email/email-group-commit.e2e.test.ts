// Mail filed in a group commit's keyed runs (docs/performance.md, "Keyed runs
// inside a group"): a filing names every key of what it read (its Message-ID,
// those it answers, the conversations it found, its sender's contact), so
// filings of one group are loaded together and each still decides as it would
// have one by one. As the group-commit tests do, the test holds the
// workspace's append lock while the messages queue behind it, in a known order,
// so that they are certain to share one group.
import { expect } from 'chai';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { messageIdHash } from '../../src/capabilities/email/mime.js';
import { queuedBehindLock } from '../support/group-commit.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { CUSTOMER_ZONE, sendMail, zoneResolver, type SendResult } from './mail-rig.js';

const ADDRESS = 'support@acme.example';

describe('mail filed in a group commit (keyed runs)', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let port: number;

  before(async () => {
    mailDns.resolver = zoneResolver(CUSTOMER_ZONE);
    // Group commit is the Postgres store's (group-commit.e2e.test.ts).
    t = await startTestService('email_group_commit', { env: { SMTP_PORT: '0', EMAIL_DOMAIN_VERIFICATION: 'off', EVENTSTORE_URL: undefined } });
    owner = await newWorkspace(t);
    const ch = await t.client.post(
      '/api/channels',
      { kind: 'email', name: 'Acme Support', address: ADDRESS, default_team_id: null },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(ch.status, ch.text).to.equal(201);
    port = (t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver).port();
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
  });

  /** The messages sent in this order, the first taking a transaction and the others queued behind it as one group. */
  const inOneGroup = (mails: { from: string; headers: string[] }[]): Promise<SendResult[]> =>
    queuedBehindLock(
      t,
      owner.workspaceId,
      mails.map((m) => () => sendMail(port, { to: ADDRESS, from: m.from, headers: [`From: <${m.from}>`, ...m.headers] })),
    );

  const filed = async (messageId: string) =>
    t.testDb
      .db('email_messages')
      .where({ tenant_id: owner.workspaceId, message_id_hash: messageIdHash(messageId) })
      .select('conversation_id', 'part_id');

  it('files a copy once, threads an answer into the message it answers, and makes one contact of a sender', async () => {
    const stamp = Date.now();
    const first = `<first.${stamp}@customer.example>`;
    const answer = `<answer.${stamp}@customer.example>`;
    const [dave1, dave2] = [`<dave1.${stamp}@customer.example>`, `<dave2.${stamp}@customer.example>`];
    const results = await inOneGroup([
      // In its transaction first, waiting for the lock: the ones after it queue, and make the group.
      { from: 'bob@customer.example', headers: [`Message-ID: <opener.${stamp}@customer.example>`, 'Subject: hello'] },
      { from: 'ada@customer.example', headers: [`Message-ID: ${first}`, 'Subject: my order'] },
      // Carol, in copy, answers it: threaded by In-Reply-To into the conversation Ada's message opens, though no
      // contact and no conversation of the two is the same (only the Message-ID's key ties them).
      { from: 'carol@customer.example', headers: [`Message-ID: ${answer}`, `In-Reply-To: ${first}`, 'Subject: Re: my order'] },
      // The same message again (an MTA's retry on another connection).
      { from: 'ada@customer.example', headers: [`Message-ID: ${first}`, 'Subject: my order'] },
      // Two messages of a new sender: two conversations, one contact.
      { from: 'dave@customer.example', headers: [`Message-ID: ${dave1}`, 'Subject: one'] },
      { from: 'dave@customer.example', headers: [`Message-ID: ${dave2}`, 'Subject: two'] },
    ]);
    for (const r of results) expect(r.code, r.response).to.equal(250);
    const [firstRows, answerRows, dave1Rows, dave2Rows] = [await filed(first), await filed(answer), await filed(dave1), await filed(dave2)];
    expect(firstRows, 'the first message, filed once').to.have.length(1);
    expect(answerRows).to.have.length(1);
    expect(answerRows[0].conversation_id, 'the answer threads into the message it answers').to.equal(firstRows[0].conversation_id);
    expect(dave1Rows[0].conversation_id).to.not.equal(dave2Rows[0].conversation_id);
    const daves = await t.testDb.db('contacts').where({ tenant_id: owner.workspaceId, email: 'dave@customer.example' }).select('id');
    expect(daves, "Dave's contacts").to.have.length(1);
  });
});
