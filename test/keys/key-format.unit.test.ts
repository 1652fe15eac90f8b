// API key format: svc_<tenant as 32 hex>_<secret>, and the tenant read back from a key.
import { expect } from 'chai';
import { API_KEY_RE, mintApiKey, tenantOfKey } from '../../src/capabilities/keys/key-format.js';

describe('API key format (unit)', () => {
  it('mints svc_<32 hex>_<43 base64url> naming the tenant', () => {
    const tenant = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const { secret, hash } = mintApiKey(tenant);
    expect(secret).to.match(API_KEY_RE);
    expect(tenantOfKey(secret)).to.equal(tenant);
    expect(hash).to.match(/^[0-9a-f]{64}$/);
    expect(tenantOfKey('svc_zz_abc')).to.equal(null);
  });
});
