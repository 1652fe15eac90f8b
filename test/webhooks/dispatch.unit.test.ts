import { expect } from 'chai';
import type { StoredEvent } from '../../src/eventstore/envelope.js';
import { afterAttempt, MAX_ATTEMPTS, retryWindowSeconds } from '../../src/dispatch/retry-policy.js';
import { evolve, targetsFor, type TenantView } from '../../src/dispatch/routing.js';
import { webhookRoutingRules as rules } from '../../src/capabilities/webhooks/webhooks.routing.js';
import { UrlPolicy, UrlRefused } from '../../src/dispatch/url-policy.js';

const T = '11111111-1111-4111-8111-111111111111';
let seq = 0;
const ev = (type: string, payload: Record<string, unknown>): StoredEvent => ({
  tenant_id: T,
  seq: ++seq,
  type,
  aggregate_type: type.split('.')[0]!,
  aggregate_id: 'a',
  payload,
  created_at: '2026-01-01T00:00:00.000Z',
  id: `id-${seq}`,
  metadata: {},
  position: String(seq),
});

/** Routes then evolves, as the dispatcher does, and returns the target ids per event. */
function run(events: StoredEvent[]): string[][] {
  const view: TenantView = { endpoints: new Map(), channels: new Map() };
  return events.map((e) => {
    const targets = targetsFor(e, view, rules).map((t) => `${t.kind}:${t.id}`);
    evolve(view, e, rules);
    return targets;
  });
}

describe('webhook routing (unit)', () => {
  it('routes by the view at the event: filters, empty = all, disabled and deleted endpoints get nothing', () => {
    const out = run([
      ev('member.invited', {}),
      ev('webhook_endpoint.created', { endpoint_id: 'e1', url: 'http://x', event_names: ['member.invited'], enabled: true }),
      ev('webhook_endpoint.created', { endpoint_id: 'e2', url: 'http://y', event_names: [], enabled: true }),
      ev('webhook_endpoint.created', { endpoint_id: 'e3', url: 'http://z', event_names: [], enabled: false }),
      ev('member.invited', {}),
      ev('member.joined', {}),
      ev('webhook_endpoint.updated', { endpoint_id: 'e2', enabled: false }),
      ev('member.invited', {}),
      ev('webhook_endpoint.deleted', { endpoint_id: 'e1' }),
      ev('member.invited', {}),
    ]);
    expect(out).to.deep.equal([
      [],
      [],
      [], // e1 filters member.invited only
      ['endpoint:e2'],
      ['endpoint:e1', 'endpoint:e2'], // e3 is disabled
      ['endpoint:e2'],
      ['endpoint:e2'], // its own disabling still reaches e2: it was enabled when appended
      ['endpoint:e1'],
      [],
      [],
    ]);
  });

  it("sends a channel only teammates' comments, and only while it has a webhook_url", () => {
    const part = (part_type: string, author: string) =>
      ev('conversation_part.created', { part_type, channel_id: 'c1', author: { type: author, id: 'x' }, body: 'hi' });
    const out = run([
      ev('channel.created', { channel_id: 'c1', kind: 'api', name: 'n', default_team_id: null, source: 's' }),
      part('comment', 'member'),
      ev('channel.updated', { channel_id: 'c1', webhook_url: 'http://bridge' }),
      ev('channel.updated', { channel_id: 'c1', name: 'renamed' }),
      part('comment', 'member'),
      part('comment', 'api_key'),
      part('note', 'member'),
      part('message', 'contact'),
      part('close', 'member'),
      ev('channel.updated', { channel_id: 'c1', webhook_url: null }),
      part('comment', 'member'),
    ]);
    expect(out).to.deep.equal([[], [], [], [], ['channel:c1'], ['channel:c1'], [], [], [], [], []]);
  });
});

describe('webhook retry policy (unit)', () => {
  it('waits 30 s doubling after each failure and is dead after the 8th; the window is 3810 s', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const delays: number[] = [];
    for (let n = 1; n < MAX_ATTEMPTS; n++) {
      const o = afterAttempt(false, n, t0, 30);
      expect(o.state).to.equal('pending');
      if (o.state === 'pending') delays.push((o.nextAttemptAt.getTime() - t0.getTime()) / 1000);
    }
    expect(delays).to.deep.equal([30, 60, 120, 240, 480, 960, 1920]);
    expect(afterAttempt(false, 8, t0, 30)).to.deep.equal({ state: 'dead' });
    expect(afterAttempt(true, 8, t0, 30)).to.deep.equal({ state: 'delivered' });
    expect(retryWindowSeconds(30)).to.equal(3810);
  });
});

describe('webhook URL policy (unit)', () => {
  const dns = (map: Record<string, string[]>) => async (h: string) => {
    const a = map[h];
    if (!a) throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('refuses private, loopback, link-local, unspecified, CGNAT, ULA and mapped addresses; allows public ones', () => {
    const p = new UrlPolicy([]);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      '::1',
      'fd12::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::7f00:1',
      '224.0.0.1',
    ]) {
      expect(p.refusal(a), a).to.be.a('string');
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '64:ff9b::808:808']) expect(p.refusal(a), a).to.equal(null);
  });

  it('lets the allowlist open hostnames, IPs and CIDRs, and refuses bad entries at start', async () => {
    const p = new UrlPolicy(
      ['127.0.0.1', '10.20.0.0/16', 'hooks.internal', 'fd00::/8'],
      dns({ 'hooks.internal': ['10.9.9.9'], 'evil.example': ['93.184.216.34', '10.20.1.1', '192.168.1.1'] }),
    );
    expect(p.refusal('127.0.0.1')).to.equal(null);
    expect(p.refusal('127.0.0.2')).to.be.a('string');
    expect(p.refusal('10.20.3.4')).to.equal(null);
    expect(p.refusal('fd00::5')).to.equal(null);
    expect(await p.resolve('https://hooks.internal/x')).to.deep.equal([{ address: '10.9.9.9', family: 4 }]);
    // One forbidden answer among public ones refuses the whole name (DNS rebinding mixes them).
    try {
      await p.resolve('https://evil.example/x');
      expect.fail('should refuse');
    } catch (e) {
      expect(e).to.be.instanceOf(UrlRefused);
      expect((e as UrlRefused).code).to.equal('webhook_url_forbidden');
      expect((e as UrlRefused).message).to.include('192.168.1.1');
    }
    try {
      await p.resolve('https://unknown.example/x');
      expect.fail('should refuse');
    } catch (e) {
      expect((e as UrlRefused).code).to.equal('webhook_url_unresolvable');
    }
    expect(() => new UrlPolicy(['10.0.0.0/33'])).to.throw(/CIDR/);
    expect(() => new UrlPolicy(['not a host!'])).to.throw(/WEBHOOK_ALLOWLIST/);
  });
});
