// The per-tenant read-through cache: a generation per tenant keeps an answer read before an invalidation from being put back after it.
import { expect } from 'chai';
import { TenantCache } from '../../src/platform/tenant-cache.js';

describe('tenant cache (unit)', () => {
  it('drops every entry, and refuses answers read before, when told notifications may have been missed', () => {
    const c = new TenantCache<string>(60_000);
    c.set('k1', 't1', 'v1', c.generation('t1'));
    const before = c.generation('t2'); // a lookup for a tenant never cached, under way
    c.invalidateAll();
    expect(c.get('k1')).to.equal(undefined);
    c.set('k2', 't2', 'stale', before);
    expect(c.get('k2')).to.equal(undefined);
    c.set('k3', 't2', 'fresh', c.generation('t2'));
    expect(c.get('k3')).to.equal('fresh');
  });
});
