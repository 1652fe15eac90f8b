// Webhook endpoint rules as specifications: given the loaded endpoint, when a command, then events or a coded refusal.
import { expect } from 'chai';
import { decideCreateEndpoint, decideDeleteEndpoint, decideUpdateEndpoint } from '../../src/capabilities/webhooks/webhooks.decider.js';
import { decider } from '../support/decider-spec.js';
import { exactDecider } from '../support/decider-spec-exact.js';

describe('webhooks decider (unit)', () => {
  it('an update of an endpoint records only what changed; a delete of a missing endpoint is a 404', () => {
    const current = { id: 'e', url: 'https://a', eventNames: [], description: '', enabled: true };
    decider(decideUpdateEndpoint)
      .given(current)
      .when({ endpointId: 'e', changes: { enabled: false, url: 'https://a' } })
      .then({ type: 'webhook_endpoint.updated', payload: { endpoint_id: 'e', enabled: false } });
    decider(decideDeleteEndpoint).given(null).when({ endpointId: 'e' }).thenRefuses('not_found');
  });

  it('an update of an endpoint records only changed fields, event names compared as a set', () => {
    const current = { id: 'e', url: 'http://a', eventNames: ['x.y'], description: 'd', enabled: true };
    expect(decideUpdateEndpoint({ endpointId: 'e', changes: { url: 'http://a', enabled: true } }, current)).to.deep.equal([]);
    const [e] = decideUpdateEndpoint({ endpointId: 'e', changes: { url: 'http://b', event_names: ['x.y', 'x.y'] } }, current);
    expect(e!.payload).to.deep.equal({ endpoint_id: 'e', url: 'http://b' });
  });

  const create = exactDecider((cmd: Parameters<typeof decideCreateEndpoint>[0], _: Record<string, never>) => decideCreateEndpoint(cmd));
  it('creating an endpoint appends its settings (never its secret), its event names a set in the order sent', () => {
    create
      .given({})
      .when({
        endpointId: 'e',
        url: 'https://hooks.example/in',
        eventNames: ['contact.created', 'conversation.created', 'contact.created'],
        description: 'CRM sync',
        enabled: true,
      })
      .then({
        type: 'webhook_endpoint.created',
        aggregate_type: 'webhook_endpoint',
        aggregate_id: 'e',
        payload: {
          endpoint_id: 'e',
          url: 'https://hooks.example/in',
          event_names: ['contact.created', 'conversation.created'],
          description: 'CRM sync',
          enabled: true,
        },
      });
  });
  it('an update of an endpoint not loaded is a 404; deleting one appends its deletion', () => {
    exactDecider(decideUpdateEndpoint)
      .given(null)
      .when({ endpointId: 'e', changes: { enabled: false } })
      .thenRefuses({ code: 'not_found', status: 404 });
    exactDecider(decideDeleteEndpoint)
      .given({ id: 'e', url: 'https://a', eventNames: [], description: '', enabled: true })
      .when({ endpointId: 'e' })
      .then({ type: 'webhook_endpoint.deleted', aggregate_type: 'webhook_endpoint', aggregate_id: 'e', payload: { endpoint_id: 'e' } });
  });
});
