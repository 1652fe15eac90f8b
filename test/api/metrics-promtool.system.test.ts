// GET /metrics linted by promtool (Debian's prometheus package): the exposition a
// real Prometheus scrapes has no problem promtool reports (a gauge named *_total,
// a counter without it, a bad help line). `npm run prometheus-check` scrapes with a
// real Prometheus server besides.
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { mintKey, newWorkspace, startTestService, type TestService } from '../support/service.js';
import { requireProgram } from '../support/system.js';

const PROMTOOL = '/usr/bin/promtool';

describe('GET /metrics through promtool', function () {
  let t: TestService;

  before(async () => {
    requireProgram(PROMTOOL, 'prometheus');
    t = await startTestService('metrics_promtool');
  });
  after(async () => t?.close());

  it('passes `promtool check metrics` after some traffic (a read, a 404, an unmatched route)', async () => {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, ['conversations:read', 'conversations:write'])).secret;
    expect((await t.client.get('/api/me', { key })).status).to.equal(200);
    expect((await t.client.get('/api/nowhere/at/all')).status).to.equal(404);
    expect((await t.client.get('/api/conversations/6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b', { key })).status).to.equal(404);
    const scrape = await t.client.get('/metrics');
    expect(scrape.status).to.equal(200);
    const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: scrape.text, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.trim()).to.equal('');
    expect(r.status).to.equal(0);
  });
});
