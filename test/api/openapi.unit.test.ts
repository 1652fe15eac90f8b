// The OpenAPI document is generated from the route definitions: it must be
// what docs/openapi.json holds, a valid OpenAPI 3.1 document, and carry every
// route with the schemas the route enforces.
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { documentedRoutes, openApiDocument } from '../../src/openapi-document.js';
import { buildOpenApi, openApiPath } from '../../src/api/openapi.js';
import { route } from '../../src/api/routes.js';
import { clientTypes } from '../../scripts/client-types.js';

const routes = documentedRoutes();
const doc = openApiDocument(routes);
type Op = Record<string, any>;
const op = (method: string, path: string): Op => (doc.paths[path] as Record<string, Op> | undefined)?.[method] as Op;

describe('OpenAPI document (unit)', () => {
  it('docs/openapi.json is what the route definitions generate (run `npm run openapi` after changing a route)', async () => {
    const committed = await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed === `${JSON.stringify(doc, null, 2)}\n`, 'docs/openapi.json is stale: run npm run openapi').to.equal(true);
  });

  it('docs/client/schema.d.ts is what openapi-typescript generates from it (run `npm run openapi`)', async () => {
    const committed = await readFile(new URL('../../docs/client/schema.d.ts', import.meta.url), 'utf8');
    expect(committed === (await clientTypes(doc)), 'docs/client/schema.d.ts is stale: run npm run openapi').to.equal(true);
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('has every route with its path parameters, its scope and a declared success answer', () => {
    expect(routes.length).to.be.greaterThan(35);
    for (const def of routes) {
      const path = `/api${openApiPath(def.path)}`;
      const o = op(def.method, path);
      expect(o, `${def.method} ${path}`).to.be.an('object');
      expect(o['x-scope']).to.equal(def.permission);
      const pathParams = (o.parameters ?? []).filter((p: Op) => p.in === 'path').map((p: Op) => p.name);
      expect(pathParams).to.deep.equal([...def.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
      expect(path).to.not.include(':');
      const success = Object.keys(o.responses).filter((s) => s.startsWith('2'));
      expect(success, `${def.method.toUpperCase()} ${def.path} declares no success answer (RouteDef.responses)`).to.not.be.empty;
      if (def.permission !== 'public' && def.permission !== 'authenticated') expect(o.description).to.include(def.permission);
      for (const s of ['400', '500']) expect(o.responses[s], `${def.method} ${path} ${s}`).to.be.an('object');
    }
  });

  it('uses the very schemas the routes validate with: body, and query parameters', () => {
    const create = routes.find((r) => r.method === 'post' && r.path === '/conversations')!;
    expect(op('post', '/api/conversations').requestBody.content['application/json'].schema).to.deep.equal(
      JSON.parse(JSON.stringify({ type: 'object', ...create.body })),
    );
    const list = routes.find((r) => r.method === 'get' && r.path === '/conversations')!;
    const params = op('get', '/api/conversations').parameters.filter((p: Op) => p.in === 'query');
    const props = (list.query as { properties: Record<string, unknown> }).properties;
    expect(params.map((p: Op) => p.name)).to.deep.equal(Object.keys(props));
    expect(params.find((p: Op) => p.name === 'state').schema).to.deep.equal(props.state);
    expect(params.find((p: Op) => p.name === 'per_page').schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 150, default: 20 });
  });

  it('describes the error envelope on every error answer, shared per status', () => {
    expect(doc.components.schemas.ErrorList).to.deep.include({ type: 'object', required: ['type', 'request_id', 'errors'] });
    const reply = op('post', '/api/conversations/{id}/reply');
    expect(Object.keys(reply.responses)).to.deep.equal(['201', '400', '401', '403', '404', '408', '409', '413', '415', '422', '429', '431', '500', '503']);
    expect(reply.responses['404']).to.deep.equal({ $ref: '#/components/responses/NotFound' });
    expect((doc.components.responses.NotFound as Op).content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ErrorList' });
    // a public route: no 401/403 unless it declares them
    expect(Object.keys(op('delete', '/api/session').responses)).to.deep.equal(['204', '400', '408', '413', '415', '431', '500', '503']);
    expect(Object.keys(op('post', '/api/session').responses)).to.include.members(['201', '401', '429']);
  });

  it('names the security of each route: key or session+workspace, session only for minting, the signature for inbound', () => {
    expect(Object.keys(doc.components.securitySchemes)).to.have.members([
      'apiKey',
      'sessionCookie',
      'workspaceHeader',
      'channelSignature',
      'channelTimestamp',
      'metricsToken',
    ]);
    expect((doc.components.securitySchemes.sessionCookie as Op).name).to.equal('svc_session');
    expect(op('get', '/api/conversations').security).to.deep.equal([
      { apiKey: ['conversations:read'] },
      { sessionCookie: ['conversations:read'], workspaceHeader: [] },
    ]);
    expect(op('post', '/api/keys').security).to.deep.equal([{ sessionCookie: ['api_keys:create'], workspaceHeader: [] }]);
    expect(op('post', '/api/session').security).to.deep.equal([]);
    const inbound = op('post', '/api/channels/{id}/inbound');
    expect(inbound.security).to.deep.equal([{ channelSignature: [], channelTimestamp: [] }]);
    expect(inbound.requestBody.content['application/json'].schema.required).to.deep.equal(['external_id', 'contact', 'content']);
    // The empty 401 (spec) is declared bodyless; the one 401 with a body, stale_timestamp, is named beside it.
    expect(inbound.responses['401']).to.not.have.property('content');
    expect(inbound.responses['401']['x-exceptional-content']['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ErrorList' });
    expect(op('post', '/api/conversations').parameters.map((p: Op) => p.$ref ?? p.name)).to.include('#/components/parameters/IdempotencyKey');
  });

  it('says in its info.description that its security requirements name scopes, which only OpenAPI 3.1 allows', () => {
    const requirements = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops as Record<string, Op>))
      .flatMap((o) => (o.security ?? []) as Record<string, string[]>[]);
    const scoped = requirements
      .flatMap((r) => Object.entries(r))
      .filter(([scheme, scopes]) => scopes.length > 0 && !['oauth2', 'openIdConnect'].includes((doc.components.securitySchemes[scheme] as Op).type));
    expect(scoped.length).to.be.above(100);
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.description).to.include('**Scopes in security requirements:**');
    expect(doc.info.description).to.match(/OpenAPI 3\.1 allows[^.]*scheme of any\s+type; OpenAPI 3\.0 allowed it only for oauth2 and openIdConnect/);
  });

  it('refuses two different schemas under one title', () => {
    const a = route({
      method: 'get',
      path: '/a',
      permission: 'public',
      responses: { 200: { title: 'Thing', type: 'string' } },
      handle: async () => ({ status: 200 }),
    });
    const b = route({
      method: 'get',
      path: '/b',
      permission: 'public',
      responses: { 200: { title: 'Thing', type: 'integer' } },
      handle: async () => ({ status: 200 }),
    });
    expect(() => buildOpenApi([a, b], { title: 't', version: '1', description: '' })).to.throw(/two different schemas are titled Thing/);
  });
});
