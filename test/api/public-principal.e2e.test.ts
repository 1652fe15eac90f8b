// A public route's call has no principal: a handler that reads it fails at once, naming the route, instead of
// reading an undefined the Call type promised away (routes.ts, callOf).
import { expect } from 'chai';
import { route } from '../../src/api/routes.js';
import { defineModule } from '../../src/capabilities/capability.js';
import { startTestService, type TestService } from '../support/service.js';

const publicRoutes = defineModule({
  name: 'public_principal_test',
  events: [],
  routes: () => [
    route({ method: 'get', path: '/test-public/plain', permission: 'public', handle: async ({ req }) => ({ status: 200, body: { path: req.path } }) }),
    route({
      method: 'get',
      path: '/test-public/reads-principal',
      permission: 'public',
      handle: async ({ principal }) => ({ status: 200, body: { tenant: principal.tenantId } }),
    }),
  ],
});

describe('public routes and the principal', function () {
  let t: TestService;
  before(async () => (t = await startTestService('public_principal', { extraModules: [publicRoutes], env: { WORKERS: 'off' } })));
  after(async () => t?.close());

  it('answers a public route that does not read the principal', async () => {
    const r = await fetch(`${t.service.url}/api/test-public/plain`);
    expect(r.status).to.equal(200);
  });

  it('fails a public route that reads it, naming the route in the log', async () => {
    const r = await fetch(`${t.service.url}/api/test-public/reads-principal`);
    expect(r.status).to.equal(500);
    expect(((await r.json()) as { errors: { code: string }[] }).errors[0]!.code).to.equal('internal_error');
    expect(t.logs.join('')).to.include('GET /test-public/reads-principal is public: it has no principal');
  });
});
