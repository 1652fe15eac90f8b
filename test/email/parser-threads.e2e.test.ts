// The parser's threads load wherever the service runs: under tsx, as `npm
// start` runs it (the thread's module is parse.worker.ts and needs tsx's
// loader), and from JavaScript, as the tests' transpiled copy of src/ and
// dist/ run it (parse.worker.js). Each is a service process of its own on the
// test's database, filing one HTML message posted as raw MIME: a 201 with the
// HTML sanitised is a thread that loaded and parsed it, and a DKIM verdict
// other than temperror one that loaded mailauth and authenticated it.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { CHANNELS_SECRET, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createEmailChannel } from '../support/channels.js';

const SECRET = 'parser-threads-secret-0123456789';

describe('parser threads in a service process, under tsx and from JavaScript', function () {
  this.timeout(90_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let channelId: string;

  before(async () => {
    // Domain ownership is email-domains.e2e's subject; here the channel only needs to exist.
    t = await startTestService('parser_threads', { env: { EMAIL_DOMAIN_VERIFICATION: 'off' } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read'])).secret;
    channelId = await createEmailChannel(t, owner, { address: 'help@widgets.example', secret: SECRET });
  });
  after(async () => t?.close());

  /** Starts the service as `how` says (TEST_CHILD_BUILD unset: `node --import tsx src/main.ts`, as npm start). */
  async function service(how: 'tsx' | 'javascript'): Promise<ServiceProcess> {
    const built = process.env.TEST_CHILD_BUILD;
    if (how === 'javascript') expect(built, 'the global fixture transpiles src/ for children').to.be.a('string');
    if (how === 'tsx') delete process.env.TEST_CHILD_BUILD;
    try {
      return await spawnService({ DATABASE_URL: t.testDb.url, SERVICE_CHANNELS_SECRET: CHANNELS_SECRET, WORKERS: 'off' });
    } finally {
      process.env.TEST_CHILD_BUILD = built;
    }
  }

  for (const how of ['tsx', 'javascript'] as const) {
    it(`files an HTML message through a parser thread (${how})`, async () => {
      const child = await service(how);
      try {
        // The sender's domain is .invalid: the child asks the system's DNS, which answers such names at once.
        const raw = [
          'From: Mo <mo@customer.invalid>',
          'To: help@widgets.example',
          'Subject: threads',
          `Message-ID: <threads-${how}-${Date.now()}@customer.invalid>`,
          'Content-Type: text/html; charset=utf-8',
          '',
          '<p>Hello <b>there</b></p><script>alert(1)</script>',
          '',
        ].join('\r\n');
        const r = await child.client.post(`/api/channels/${channelId}/inbound/mime`, undefined, {
          raw,
          headers: {
            'content-type': 'message/rfc822',
            'x-service-signature': createHmac('sha256', SECRET).update(raw).digest('hex'),
            'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
          },
        });
        expect(r.status, `${r.text}\n${child.tail()}`).to.equal(201);
        const email = await t.client.get(`/api/conversations/${r.body.conversation_id}/parts/${r.body.part_id}/email`, { key });
        expect(email.body.html.trim()).to.equal('<p>Hello <b>there</b></p>');
        // mailauth ran in a thread too: no signature is DKIM `none` whatever the DNS answered, where a thread that
        // could not load its module would have made every verdict a temperror.
        expect(email.body.authentication.dkim).to.equal('none');
      } finally {
        child.kill('SIGTERM');
        await child.exited;
      }
    });
  }
});
