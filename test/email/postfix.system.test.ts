// Replies through Debian's Postfix as the SMTP relay: an instance of its own in a
// temporary directory (its own main.cf, queue and ports on 127.0.0.1; the system
// configuration is never touched), started with `postfix -c DIR start-fg` and
// stopped at the end. Mail comes in from swaks. The system tier: Postfix needs
// root and the package (`npm run test:system` installs it); without them it fails.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { authenticate } from 'mailauth';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { eventually } from '../support/events.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { requireProgram } from '../support/system.js';
import { dkimKeys, Sink, zoneResolver } from './mail-rig.js';
import { swaks } from './swaks.js';

const ADDRESS = 'help@acme.example';

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function listening(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`postfix did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A Postfix instance relaying everything to `relayPort`, except mail for acme.example (bounces), which goes to the service. */
async function startPostfix(relayPort: number, servicePort: number): Promise<{ port: number; stop(): Promise<void>; log(): string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cs-postfix-'));
  const etc = path.join(dir, 'etc');
  const spool = path.join(dir, 'spool');
  const data = path.join(dir, 'data');
  for (const d of [etc, spool, data]) await mkdir(d, { recursive: true });
  // The daemons run as user postfix: every parent must be searchable, the data directory theirs.
  for (const d of [dir, etc, spool]) await chmod(d, 0o755);
  execFileSync('chown', ['postfix', data]);
  await copyFile('/etc/postfix/master.cf', path.join(etc, 'master.cf'));
  const port = await freePort();
  await writeFile(
    path.join(etc, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${spool}`,
      `data_directory = ${data}`,
      'myhostname = mta.example.test',
      'mydomain = example.test',
      'myorigin = $myhostname',
      'mydestination =',
      'local_recipient_maps =',
      'alias_maps =',
      'alias_database =',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mynetworks = 127.0.0.0/8',
      'smtpd_relay_restrictions = permit_mynetworks, reject',
      `relayhost = [127.0.0.1]:${relayPort}`,
      `transport_maps = inline:{acme.example=smtp:[127.0.0.1]:${servicePort}}`,
      'default_transport = smtp',
      'relay_transport = relay',
      'smtp_tls_security_level = none',
      'smtpd_tls_security_level = none',
      'smtp_dns_support_level = disabled',
      'smtpd_peername_lookup = no',
      'maillog_file = /dev/stdout',
      'queue_run_delay = 1s',
      'minimal_backoff_time = 1s',
      'maximal_backoff_time = 2s',
      'maximal_queue_lifetime = 60s',
      'bounce_queue_lifetime = 60s',
      '',
    ].join('\n'),
  );
  execFileSync('postconf', ['-c', etc, '-F', '*/*/chroot = n']);
  execFileSync('postconf', ['-c', etc, '-MX', 'smtp/inet']);
  execFileSync('postconf', ['-c', etc, '-Me', `${port}/inet = ${port} inet n - n - - smtpd`]);
  execFileSync('postfix', ['-c', etc, 'check']);
  // Its log (maillog_file = /dev/stdout) goes to a file: with a pipe as stdout, start-fg exits at once, saying nothing.
  const logFile = path.join(dir, 'postfix.log');
  const out = openSync(logFile, 'w');
  const master: ChildProcess = spawn('postfix', ['-c', etc, 'start-fg'], { stdio: ['ignore', out, out] });
  closeSync(out);
  await listening(port, 20_000).catch((e: Error) => {
    master.kill('SIGTERM');
    throw new Error(`${e.message}; postfix said: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
  });
  return {
    port,
    log: () => readFileSync(logFile, 'utf8'),
    async stop() {
      try {
        execFileSync('postfix', ['-c', etc, 'stop']);
      } catch {
        master.kill('SIGTERM');
      }
      if (master.exitCode === null) await new Promise((r) => master.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('e-mail replies relayed by Debian Postfix', function () {
  this.timeout(180_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let sink: Sink;
  let postfix: Awaited<ReturnType<typeof startPostfix>> | null = null;
  let smtpPort: number;
  const dkim = dkimKeys();

  before(async function () {
    if (process.getuid?.() !== 0) throw new Error('Postfix runs its daemons as user postfix: run the system tier as root');
    requireProgram('/usr/sbin/postfix', 'postfix');
    sink = await new Sink().start();
    mailDns.resolver = zoneResolver({
      'customer.example': 'v=spf1 ip4:127.0.0.1 -all',
      'acme.example': 'v=spf1 ip4:127.0.0.1 -all',
      '_dmarc.acme.example': 'v=DMARC1; p=reject',
      'pf2026._domainkey.acme.example': `v=DKIM1; k=rsa; p=${dkim.publicKey}`,
    });
    // The service's receiver first (Postfix sends bounces for acme.example there), then Postfix, then the relay URL.
    const receiverPort = await freePort();
    postfix = await startPostfix(sink.port, receiverPort);
    t = await startTestService('email_postfix', {
      env: {
        EMAIL_DOMAIN_VERIFICATION: 'off',
        SMTP_PORT: String(receiverPort),
        SMTP_RELAY_URL: `smtp://127.0.0.1:${postfix.port}`,
        WEBHOOK_RETRY_BASE_SECONDS: '1',
      },
    });
    smtpPort = (t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver).port();
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write'])).secret;
    const ch = await t.client.post(
      '/api/channels',
      { kind: 'email', name: 'Acme Help', address: ADDRESS, default_team_id: null, dkim: { selector: 'pf2026', private_key: dkim.privateKey } },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(ch.status, ch.text).to.equal(201);
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
    await postfix?.stop();
    await sink?.close();
  });

  async function conversationFrom(from: string): Promise<string> {
    const r = await swaks(smtpPort, ['--to', ADDRESS, '--from', from, '--header', 'Subject: via postfix', '--body', 'Hello']);
    expect(r.code, r.output).to.equal(0);
    const row = await t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, from_address: from }).first();
    return row.conversation_id as string;
  }
  const reply = async (conversationId: string) => {
    const r = await t.client.post(`/api/conversations/${conversationId}/reply`, { body: 'Relayed by Postfix.', message_type: 'comment' }, { key });
    expect(r.status, r.text).to.equal(201);
    return r.body.id as string;
  };

  it('delivers a reply through Postfix with its headers and a DKIM signature that still verifies', async () => {
    const conversationId = await conversationFrom('pat@customer.example');
    const partId = await reply(conversationId);
    const [out] = await eventually(
      () => sink.to('pat@customer.example'),
      (r) => r.length === 1,
      20_000,
    );
    expect(out!.raw.toString()).to.match(/^Received: from [^\n]*(\r?\n\s[^\n]*)*by mta\.example\.test \(Postfix\)/m);
    expect(out!.mail.messageId).to.equal(`<p.${partId}@acme.example>`);
    expect(out!.mail.from?.value[0]?.address).to.equal(ADDRESS);
    // The envelope sender Postfix kept is the reply's own bounce address (VERP), on the channel's domain.
    expect(out!.from).to.match(/^help\+[a-z2-7]{42}@acme\.example$/);
    const auth = await authenticate(out!.raw, {
      ip: '127.0.0.1',
      helo: 'mta.example.test',
      sender: out!.from,
      mta: 'mx.customer.example',
      resolver: mailDns.resolver!,
    });
    expect(auth.dkim.results.map((r) => (r as { status: { result: string } }).status.result)).to.deep.equal(['pass']);
  });

  it("attaches Postfix's bounce of a refused reply to the part", async () => {
    const conversationId = await conversationFrom('data550@customer.example');
    const partId = await reply(conversationId);
    // Postfix accepts (250), the destination refuses (550), Postfix bounces to the envelope sender: the channel.
    const row = await eventually(
      () => t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, part_id: partId }).first(),
      (r) => r?.delivery_status === 'failed',
      30_000,
    );
    expect(row.delivery_code).to.equal(550);
    expect(row.delivery_error).to.match(/550 5\.1\.1 No such user here/);
    // The bounce was attached, not filed as the customer's message.
    expect(await t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, from_address: 'mailer-daemon@mta.example.test' })).to.have.length(0);
  });
});
