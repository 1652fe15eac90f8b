// Webhook endpoint rules as specifications: given the loaded endpoint, when a command, then events or a coded refusal.
import { expect } from 'chai';
import { decideDeleteEndpoint, decideUpdateEndpoint } from '../../src/capabilities/webhooks/webhooks.decider.js';
import { decider } from '../support/decider-spec.js';

describe('webhooks decider (unit)', () => {
  it('an update of an endpoint records only what changed; a delete of a missing endpoint is a 404', () => {
    const current = { id: 'e', url: 'https://a', eventNames: [], description: '', enabled: true };
    decider(decideUpdateEndpoint).given(current).when({ endpointId: 'e', changes: { enabled: false, url: 'https://a' } }).then({ type: 'webhook_endpoint.updated', payload: { endpoint_id: 'e', enabled: false } });
    decider(decideDeleteEndpoint).given(null).when({ endpointId: 'e' }).thenRefuses('not_found');
  });

  it('an update of an endpoint records only changed fields, event names compared as a set', () => {
    const current = { id: 'e', url: 'http://a', eventNames: ['x.y'], description: 'd', enabled: true };
    expect(decideUpdateEndpoint({ endpointId: 'e', changes: { url: 'http://a', enabled: true } }, current)).to.deep.equal([]);
    const [e] = decideUpdateEndpoint({ endpointId: 'e', changes: { url: 'http://b', event_names: ['x.y', 'x.y'] } }, current);
    expect(e!.payload).to.deep.equal({ endpoint_id: 'e', url: 'http://b' });
  });
});
