import { expect } from 'chai';
import { mountRoutes, type RouteDef, type RoutePipeline } from '../../src/api/routes.js';
import { randomIds } from '../../src/platform/ids.js';

const pipeline: RoutePipeline = {
  authenticate: async () => {
    throw new Error('not reached');
  },
  requireFreshSession: () => undefined,
  idempotent: async (_req, _p, run) => run(pipelineUnkeyed()),
  unkeyed: () => pipelineUnkeyed(),
  scoped: (_p, run) => run(),
  limit: async () => ({}),
};
function pipelineUnkeyed() {
  return { ids: randomIds, answers: null, resumed: false };
}
const parsers = { json: (_q: unknown, _s: unknown, n: () => void) => n(), raw: (_q: unknown, _s: unknown, n: () => void) => n() };

describe('route registry', () => {
  it('refuses to mount a route that declares no permission', () => {
    const bad = { method: 'get', path: '/x', handle: async () => ({ status: 200 }) } as unknown as RouteDef;
    expect(() => mountRoutes([bad], pipeline, parsers as never)).to.throw(/declares no valid permission/);
  });

  it('refuses a permission that is not a known scope', () => {
    const bad = { method: 'get', path: '/x', permission: 'conversations:everything', handle: async () => ({ status: 200 }) } as unknown as RouteDef;
    expect(() => mountRoutes([bad], pipeline, parsers as never)).to.throw(/conversations:everything/);
  });

  it('mounts routes that declare a scope, public or authenticated', () => {
    const ok: RouteDef[] = [
      { method: 'get', path: '/a', permission: 'events:read', handle: async () => ({ status: 200 }) },
      { method: 'get', path: '/b', permission: 'public', handle: async () => ({ status: 200 }) },
      { method: 'get', path: '/c', permission: 'authenticated', handle: async () => ({ status: 200 }) },
    ];
    expect(() => mountRoutes(ok, pipeline, parsers as never)).to.not.throw();
  });
});
