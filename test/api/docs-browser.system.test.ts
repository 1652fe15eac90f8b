// GET /docs in a real browser: Debian's Chromium driven by playwright-core
// (never a Playwright browser download). The reference renders the operations
// of docs/openapi.json, its search finds the signed inbound route, and nothing
// is fetched from anywhere but the service. The system tier: `npm run test:system`
// installs Chromium first (scripts/system-packages.sh).
//
//   DOCS_SCREENSHOT=1 npx mocha test/api/docs-browser.system.test.ts   also rewrites docs/api-reference.png
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.js';
import { requireProgram } from '../support/system.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('API reference in a browser (GET /docs, Chromium)', function () {
  this.timeout(180_000);
  let t: TestService;
  let browser: Browser;

  before(async () => {
    requireProgram(CHROMIUM, 'chromium');
    t = await startTestService('docs_browser');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('serves the page and the renderer from the service, with a CSP that admits only this origin', async () => {
    const page = await t.client.get('/docs');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('content-security-policy')).to.include("default-src 'self'");
    const script = /<script src="(\/docs\/scalar-[^"]+\.js)">/.exec(page.text)?.[1];
    expect(script).to.be.a('string');
    const bundle = await fetch(`${t.service.url}${script}`);
    expect(bundle.status).to.equal(200);
    expect(bundle.headers.get('content-type')).to.match(/javascript/);
    expect((await bundle.text()).length).to.be.greaterThan(1_000_000);
  });

  it('renders the operations, finds the inbound route by searching "inbound", and fetches nothing from elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const elsewhere: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(t.service.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${t.service.url}/docs`);

    // Operations render: the first group (the document's first tag) opens with every one of its operations.
    const doc = (await t.client.get('/openapi.json')).body as {
      info: { title: string };
      tags?: { name: string }[];
      paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
    };
    await page.getByText(doc.info.title).first().waitFor({ timeout: 30_000 });
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    const firstTag = doc.tags?.[0]?.name ?? ops[0]!.tags[0];
    const firstOps = ops.filter((op) => op.tags[0] === firstTag);
    expect(firstOps.length).to.be.at.least(1);
    for (const op of firstOps) await page.getByText(op.summary, { exact: true }).first().waitFor({ timeout: 10_000 });
    for (const tag of ['conversations', 'webhooks', 'events', 'keys']) expect(await page.getByText(tag, { exact: true }).count(), tag).to.be.greaterThan(0);

    // Search: "inbound" finds POST /api/channels/{id}/inbound.
    await page.locator('button').filter({ hasText: 'Search' }).filter({ visible: true }).first().click();
    const search = page.getByRole('combobox').filter({ visible: true }).first();
    await search.fill('inbound');
    const hit = page.getByRole('option').filter({ hasText: '/api/channels/{id}/inbound' });
    await hit.first().waitFor({ timeout: 10_000 });
    expect(await hit.first().innerText()).to.include("Post a customer's message as the channel's bridge (signed)");
    // Choosing the hit opens the operation: that is the screenshot.
    await hit.first().click();
    await search.waitFor({ state: 'hidden', timeout: 10_000 });
    await page
      .getByRole('heading', { name: "Post a customer's message as the channel's bridge (signed)" })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(300);
    const shot = process.env.DOCS_SCREENSHOT === '1' ? path.join(ROOT, 'docs', 'api-reference.png') : path.join(os.tmpdir(), 'api-reference.png');
    await page.screenshot({ path: shot });
    console.log(`    screenshot: ${shot}`);

    expect(elsewhere, 'requests that left the service').to.deep.equal([]);
    expect(errors, 'uncaught page errors').to.deep.equal([]);
    await page.close();
  });
});
