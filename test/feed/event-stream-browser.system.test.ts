// The event stream in a real browser: Debian's Chromium (driven by
// playwright-core, never a Playwright browser download) reads
// GET /api/events/stream with a plain EventSource, signed in by its session
// cookie and naming its workspace in the query (an EventSource sends no
// headers of its own). The system tier: `npm run test:system` installs Chromium
// first (scripts/system-packages.sh).
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { requireProgram } from '../support/system.js';

const CHROMIUM = '/usr/bin/chromium';

describe('the event stream in a browser (EventSource, Chromium)', function () {
  this.timeout(180_000);
  let t: TestService;
  let browser: Browser;
  let owner: Member;

  before(async () => {
    requireProgram(CHROMIUM, 'chromium');
    t = await startTestService('event_stream_browser');
    owner = await newWorkspace(t);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("receives the workspace's new events as they are committed, each with its seq as lastEventId", async () => {
    const context = await browser.newContext();
    const [name, value] = owner.cookie.split(';')[0]!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: t.service.url }]);
    const page = await context.newPage();
    await page.goto(`${t.service.url}/healthz`);
    // The page opens the stream and keeps what it gets; the test writes once it is open.
    await page.evaluate(
      ({ workspace }) => {
        const w = window as unknown as { got: { id: string; type: string; seq: number; email: string }[]; opened: boolean };
        w.got = [];
        w.opened = false;
        const source = new EventSource(`/api/events/stream?types=contact.created&workspace=${workspace}`);
        source.onopen = () => (w.opened = true);
        source.addEventListener('contact.created', (e) => {
          const m = e as MessageEvent<string>;
          const data = JSON.parse(m.data) as { seq: number; payload: { email: string } };
          w.got.push({ id: m.lastEventId, type: m.type, seq: data.seq, email: data.payload.email });
        });
      },
      { workspace: owner.workspaceId },
    );
    await page.waitForFunction(() => (window as unknown as { opened: boolean }).opened);
    for (let i = 0; i < 5; i++) {
      const r = await t.client.post('/api/contacts', { email: `browser${i}@example.com` }, { cookie: owner.cookie, workspace: owner.workspaceId });
      expect(r.status, r.text).to.equal(201);
    }
    await page.waitForFunction(() => (window as unknown as { got: unknown[] }).got.length >= 5);
    const got = (await page.evaluate(() => (window as unknown as { got: unknown[] }).got)) as { id: string; type: string; seq: number; email: string }[];
    expect(got.map((g) => g.email)).to.deep.equal([0, 1, 2, 3, 4].map((i) => `browser${i}@example.com`));
    expect(got.every((g) => g.type === 'contact.created' && g.id === String(g.seq))).to.equal(true);
    await context.close();
  });
});
