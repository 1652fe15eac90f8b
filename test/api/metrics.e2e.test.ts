// GET /metrics: the Prometheus text format with the service's own metrics, and
// METRICS_TOKEN guarding it when set.
import { expect } from 'chai';
import { Conflict } from '../../src/platform/errors.js';
import { ServiceMetrics } from '../../src/metrics.js';
import type { RoutePipeline } from '../../src/api/routes.js';
import { eventually } from '../support/events.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { Receiver } from '../webhooks/receiver.js';
import { randomIds } from '../../src/platform/ids.js';

/** The value of one sample line, e.g. value(text, 'service_http_requests_total', {route: '/api/me', ...}). */
function value(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return null;
}

describe('GET /metrics', function () {
  let t: TestService;
  let owner: Member;
  let key: string;
  let receiver: Receiver;

  before(async () => {
    t = await startTestService('metrics', { env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'settings:read', 'settings:write'])).secret;
    receiver = await new Receiver().start();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  const scrape = async (headers: Record<string, string> = {}) => {
    const r = await t.client.get('/metrics', { headers });
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return r.text;
  };

  it('counts requests by route template, method and status, with a latency histogram', async () => {
    const conv = await t.client.get('/api/conversations/6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b', { key });
    expect(conv.status).to.equal(404);
    await t.client.get('/api/me', { key });
    await t.client.get('/api/nowhere/at/all');
    const text = await scrape();
    expect(value(text, 'service_http_requests_total', { route: '/api/conversations/:id', method: 'GET', status: '404' })).to.equal(1);
    expect(value(text, 'service_http_requests_total', { route: '/api/me', method: 'GET', status: '200' })).to.be.at.least(1);
    expect(value(text, 'service_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).to.be.at.least(1);
    expect(value(text, 'service_http_request_duration_seconds_count', { route: '/api/me', method: 'GET', status: '200' })).to.be.at.least(1);
    expect(value(text, 'service_http_request_duration_seconds_bucket', { route: '/api/me', method: 'GET', status: '200', le: '+Inf' })).to.be.at.least(1);
    // a concrete path never becomes a label
    expect(text).to.not.include('6a1f3c2e-8d4b');
  });

  it('counts commands appended (and their events) and refused, and idempotent replays', async () => {
    const channel = await createChannel(t, owner);
    const started = await t.client.post(
      '/api/conversations',
      { channel_id: channel.id, body: 'hello', contact: { external_id: 'm-1' } },
      { key, headers: { 'idempotency-key': 'metrics-1' } },
    );
    expect(started.status, started.text).to.equal(201);
    const again = await t.client.post(
      '/api/conversations',
      { channel_id: channel.id, body: 'hello', contact: { external_id: 'm-1' } },
      { key, headers: { 'idempotency-key': 'metrics-1' } },
    );
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    const close = () => t.client.post(`/api/conversations/${started.body.id}/parts`, { message_type: 'close' }, { key });
    expect((await close()).status).to.equal(201);
    expect((await close()).status).to.equal(409);
    const text = await scrape();
    expect(value(text, 'service_commands_appended_total')).to.be.at.least(3);
    expect(value(text, 'service_events_appended_total', { type: 'conversation.created' })).to.equal(1);
    expect(value(text, 'service_events_appended_total', { type: 'conversation_part.created' })).to.equal(2);
    expect(value(text, 'service_commands_refused_total', { code: 'conversation_already_closed' })).to.equal(1);
    expect(value(text, 'service_idempotency_total', { outcome: 'replayed' })).to.equal(1);
  });

  it('counts delivery attempts with their latency, and samples lag and the outbox', async () => {
    const ep = await t.client.post('/api/webhooks', { url: receiver.url, event_names: ['conversation.created'] }, { key });
    expect(ep.status, ep.text).to.equal(201);
    const channel = await createChannel(t, owner);
    expect((await t.client.post('/api/conversations', { channel_id: channel.id, body: 'hi', contact: { external_id: 'm-2' } }, { key })).status).to.equal(201);
    await receiver.waitFor(1);
    await eventually(
      async () => value(await scrape(), 'service_webhook_delivery_attempts_total', { target_kind: 'endpoint', outcome: 'delivered' }),
      (n) => n === 1,
    );
    const text = await scrape();
    expect(value(text, 'service_webhook_delivery_latency_seconds_count', { target_kind: 'endpoint' })).to.equal(1);
    expect(value(text, 'service_webhook_attempt_duration_seconds_count', { target_kind: 'endpoint' })).to.equal(1);
    expect(value(text, 'service_webhook_deliveries', { target_kind: 'endpoint', state: 'pending' })).to.equal(0);
    expect(value(text, 'service_webhook_deliveries', { target_kind: 'endpoint', state: 'dead' })).to.equal(0);
    if (t.service.deps.store.kind === 'postgres') {
      expect(value(text, 'service_projection_lag_events', { process: 'read_models' })).to.equal(0);
      expect(value(text, 'service_projection_lag_events', { process: 'webhook_dispatcher' })).to.be.a('number');
      expect(value(text, 'service_projection_lag_seconds', { process: 'webhook_dispatcher' })).to.be.a('number');
    } else {
      // EventStoreDB (docs/eventstoredb.md, "Gaps that remain"): the lag is sampled from the Postgres log (event_heads,
      // the events after a subscription's xid8 position); with the log elsewhere the gauges are not reported at all,
      // rather than as a made-up 0. The outbox gauges above still are.
      for (const name of ['service_projection_lag_events', 'service_projection_lag_seconds'])
        for (const process of ['read_models', 'webhook_dispatcher']) expect(value(text, name, { process }), `${name}{process=${process}}`).to.equal(null);
    }
  });

  it('reports the connection pool and the default process metrics', async () => {
    const text = await scrape();
    expect(value(text, 'service_db_pool_connections', { state: 'used' })).to.be.a('number');
    expect(value(text, 'service_db_pool_connections', { state: 'free' })).to.be.a('number');
    expect(value(text, 'service_db_pool_connections', { state: 'pending_acquires' })).to.equal(0);
    // Requests of a workspace ran before the scrape: its connections were put in its role at least once.
    expect(value(text, 'service_db_role_switches_total')).to.be.above(0).and.at.most(t.service.deps.scope.switches());
    expect(value(text, 'process_cpu_user_seconds_total')).to.be.a('number');
    expect(value(text, 'nodejs_eventloop_lag_seconds')).to.be.a('number');
  });

  it("names no gauge, histogram or summary with the counters' _total suffix", async () => {
    const text = await scrape();
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! }));
    expect(types.length).to.be.above(20);
    expect(types.filter((m) => m.type !== 'counter' && m.name.endsWith('_total')).map((m) => m.name)).to.deep.equal([]);
    // What those three gauges summed is still there, by type.
    expect(types.map((m) => m.name)).to.include.members(['nodejs_active_handles', 'nodejs_active_requests', 'nodejs_active_resources']);
  });

  it('counts in-flight and reused Idempotency-Keys at the pipeline', async () => {
    const m = new ServiceMetrics({ db: t.service.deps.db, storeKind: 'postgres', log: t.service.deps.log });
    const failing = (e: Error): RoutePipeline => ({
      authenticate: async () => ({}) as never,
      requireFreshSession: () => undefined,
      scoped: (_p, run) => run(),
      idempotent: async () => Promise.reject(e),
      unkeyed: () => ({ ids: randomIds, answers: null, resumed: false }),
      limit: async () => ({}),
    });
    await m
      .instrumentPipeline(failing(new Conflict('idempotency_key_in_flight', 'busy')))
      .idempotent({} as never, {} as never, async () => ({ status: 200 }))
      .catch(() => undefined);
    const text = await m.registry.metrics();
    expect(value(text, 'service_idempotency_total', { outcome: 'in_flight' })).to.equal(1);
  });
});

describe('GET /metrics with METRICS_TOKEN', function () {
  let t: TestService;
  const token = 'metrics-token-0123456789abcdef';
  before(async () => (t = await startTestService('metrics_token', { env: { METRICS_TOKEN: token } })));
  after(async () => t.close());

  it('answers 401 without the token or with another, 200 with it', async () => {
    const none = await t.client.get('/metrics');
    expect(none.status).to.equal(401);
    expect(none.body.errors[0].code).to.equal('unauthenticated');
    expect(none.headers.get('www-authenticate')).to.match(/^Bearer/);
    expect((await t.client.get('/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789abcdeX' } })).status).to.equal(401);
    const ok = await t.client.get('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).to.equal(200);
    expect(ok.text).to.include('service_http_requests_total');
  });
});
