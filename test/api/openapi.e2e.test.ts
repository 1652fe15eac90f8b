// GET /openapi.json: public, and the same document as docs/openapi.json.
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('GET /openapi.json', function () {
  let t: TestService;
  before(async () => (t = await startTestService('openapi_served')));
  after(async () => t.close());

  it('serves the committed document without credentials', async () => {
    const r = await t.client.get('/openapi.json');
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^application\/json/);
    const committed = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(r.body).to.deep.equal(committed);
    expect(r.body.openapi).to.equal('3.1.0');
  });
});
