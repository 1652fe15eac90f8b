import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('HTTP skeleton', function () {
  let t: TestService;
  before(async () => (t = await startTestService('http_skeleton')));
  after(async () => t.close());

  it('answers /healthz and /readyz with 200', async () => {
    expect((await t.client.get('/healthz')).status).to.equal(200);
    const ready = await t.client.get('/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.equal({ status: 'ready' });
  });

  it('echoes a caller X-Request-Id and puts it in the error envelope', async () => {
    const r = await t.client.get('/api/nowhere', { headers: { 'x-request-id': 'req-abc-123' } });
    expect(r.headers.get('x-request-id')).to.equal('req-abc-123');
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({
      type: 'error.list',
      request_id: 'req-abc-123',
      errors: [{ code: 'route_not_found', message: 'No route matches GET /api/nowhere.' }],
    });
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const r = await t.client.post('/api/session', undefined, { raw: '{"email": "a@b.c",' });
    expect(r.status).to.equal(400);
    expect(r.body.type).to.equal('error.list');
    expect(r.body.errors[0].code).to.equal('invalid_json');
  });

  it('answers an oversized body with 413 payload_too_large', async () => {
    const r = await t.client.post('/api/session', undefined, { raw: JSON.stringify({ email: 'x'.repeat(300 * 1024), password: 'p' }) });
    expect(r.status).to.equal(413);
    expect(r.body.errors[0].code).to.equal('payload_too_large');
  });

  it('answers a body that fails its schema with field-level errors', async () => {
    const r = await t.client.post('/api/session', { email: 'a@b.c', extra: 1 });
    expect(r.status).to.equal(400);
    const fields = r.body.errors.map((e: { field: string; code: string }) => `${e.code}:${e.field}`).sort();
    expect(fields).to.deep.equal(['missing_field:password', 'unknown_field:extra']);
  });

  it('answers an unauthenticated /api call with 401 in the envelope', async () => {
    const r = await t.client.get('/api/members');
    expect(r.status).to.equal(401);
    expect(r.body.errors[0].code).to.equal('unauthenticated');
  });
});
