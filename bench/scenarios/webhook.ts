// webhook: latency from an append to a 127.0.0.1 receiver having the signed
// delivery, at a steady rate, against a bare pg NOTIFY→LISTEN round trip.
// The delivery measurement itself (webhookDelivery) is also the rules row's baseline.
import { randomUUID } from 'node:crypto';
import { runTask, startDaemon } from '../lib/child.js';
import { row, unavailable } from '../lib/report.js';
import { sleep, summarize, type LatencySummary } from '../lib/stats.js';
import type { AppenderInput, AppenderResult } from '../workers/webhook-appender.js';
import type { Arrival, ReceiverCall } from '../workers/webhook-receiver.js';
import { auth, type Ctx, type Scenario } from './shared.js';

export interface WebhookDelivery {
  appended: number;
  appendFailures: number;
  delivered: number;
  /** appended but not delivered within 30 s */
  missing: number;
  duplicates: number;
  signaturesVerified: number;
  driveSeconds: number;
  /** from the append call (its transaction's start) to the receiver having the whole body: the row's figure */
  fromAppend: LatencySummary;
  /** from the append's commit (as the appender saw it return) */
  fromCommit: LatencySummary;
}

/**
 * Webhook delivery latency, as the webhook row measures it: a receiver in its own process, an endpoint for
 * `conversation_part.created` created through `POST /api/webhooks` in the workspace `tenantName` (one of its own:
 * every delivery of that workspace is counted), `conversation_part.created` appended through
 * `PostgresEventStore.append` at `rate` a second (the webhook row's, `ctx.sizes.webhookRate`, unless told) for
 * `ctx.sizes.webhookS` (after a warm-up of 20 at 50/s, waited for), each delivery waited for up to 30 s. Null when
 * this build has no webhooks.
 */
export async function webhookDelivery(ctx: Ctx, tenantName: string, rate = ctx.sizes.webhookRate): Promise<WebhookDelivery | null> {
  await ctx.service(); // it must run (its workers deliver to the receiver); the scenario reaches it through ctx
  const boot = await ctx.boot();
  const t = await ctx.tenant(tenantName);
  const receiver = await startDaemon<{ url: string }>('webhook-receiver.ts', {});
  try {
    const created = await boot.http(
      'POST',
      '/api/webhooks',
      { url: receiver.ready.url, event_names: ['conversation_part.created'], description: 'bench receiver' },
      auth(t),
    );
    if (created.status === 404) return null;
    if (created.status !== 201) throw new Error(`POST /api/webhooks answered ${created.status}: ${created.text.slice(0, 300)}`);
    await receiver.call({ cmd: 'secret', secret: created.body.secret } satisfies ReceiverCall);
    const conversationId = randomUUID();
    const drive = (rate: number, count: number) =>
      runTask<AppenderResult>(
        'webhook-appender.ts',
        { mode: 'append', url: ctx.dbs.mainUrl, tenantId: t.workspaceId, conversationId, channelId: t.channelId, rate, count } satisfies AppenderInput,
        { timeoutMs: (count / rate) * 1000 + 120_000 },
      ) as Promise<Extract<AppenderResult, { mode: 'append' }>>;
    const collect = async (want: number, graceMs: number): Promise<Arrival[]> => {
      const got: Arrival[] = [];
      const until = Date.now() + graceMs;
      for (;;) {
        got.push(...(await receiver.call<Arrival[]>({ cmd: 'take' } satisfies ReceiverCall)).filter((a) => a.tenant === t.workspaceId));
        if (new Set(got.map((a) => a.seq)).size >= want || Date.now() > until) return got;
        await sleep(100);
      }
    };
    // Warm-up: the endpoint reaches the dispatcher's view through the log; wait until deliveries flow.
    const warm = await drive(50, 20);
    await collect(warm.appended.length, 30_000);
    const count = Math.round(rate * ctx.sizes.webhookS);
    const run = await drive(rate, count);
    const arrivals = await collect(run.appended.length, 30_000);
    const firstArrival = new Map<number, Arrival>();
    for (const a of arrivals) if (!firstArrival.has(a.seq)) firstArrival.set(a.seq, a);
    const fromAppend: number[] = [];
    const fromCommit: number[] = [];
    for (const a of run.appended) {
      const got = firstArrival.get(a.seq);
      if (!got) continue;
      fromAppend.push(got.at - a.startedAt);
      fromCommit.push(got.at - a.committedAt);
    }
    return {
      appended: run.appended.length,
      appendFailures: run.failures,
      delivered: fromAppend.length,
      missing: run.appended.length - fromAppend.length,
      duplicates: arrivals.length - firstArrival.size,
      signaturesVerified: arrivals.filter((a) => a.signed).length,
      driveSeconds: run.seconds,
      fromAppend: summarize(fromAppend),
      fromCommit: summarize(fromCommit),
    };
  } finally {
    await receiver.stop();
  }
}

export const webhook: Scenario = {
  name: 'webhook',
  needsService: true,
  async run(ctx) {
    const d = await webhookDelivery(ctx, 'hooks');
    if (!d) return [unavailable('webhook', 'append → receiver 2xx latency', 'POST /api/webhooks is not available in this build')];
    const notify = (await runTask<AppenderResult>(
      'webhook-appender.ts',
      {
        mode: 'notify',
        url: ctx.dbs.mainUrl,
        rate: ctx.sizes.webhookRate,
        count: Math.round(ctx.sizes.webhookRate * ctx.sizes.notifyS),
      } satisfies AppenderInput,
      { timeoutMs: ctx.sizes.notifyS * 1000 + 60_000 },
    )) as Extract<AppenderResult, { mode: 'notify' }>;
    const lat = d.fromAppend;
    const missing = d.missing;
    const details = {
      appended: d.appended,
      append_failures: d.appendFailures,
      delivered: d.delivered,
      missing,
      duplicates: d.duplicates,
      signatures_verified: d.signaturesVerified,
      drive_seconds: d.driveSeconds,
      from_append_start_ms: lat,
      from_commit_ms: d.fromCommit,
      notify_baseline: notify,
    };
    const label = 'bare pg NOTIFY→LISTEN';
    const note = `${ctx.sizes.webhookRate} events/s for ${ctx.sizes.webhookS} s appended through PostgresEventStore.append; latency from the append call to the receiver having the whole body${missing ? `; ${missing} never arrived within 30 s` : ''}`;
    return [
      row({
        scenario: 'webhook',
        figure: `p99 append → 127.0.0.1 receiver 2xx at ${ctx.sizes.webhookRate}/s`,
        unit: 'ms',
        ours: missing ? null : lat.p99,
        baselineLabel: `${label} p99`,
        baseline: notify.latencyMs.p99,
        target: { kind: 'ours<=', value: 25 },
        note,
        details,
        ...(missing ? { status: 'fail' as const } : {}),
      }),
      row({
        scenario: 'webhook',
        figure: `p50 append → 127.0.0.1 receiver 2xx at ${ctx.sizes.webhookRate}/s`,
        unit: 'ms',
        ours: lat.p50,
        baselineLabel: `${label} p50`,
        baseline: notify.latencyMs.p50,
        target: { kind: 'none' },
      }),
    ];
  },
};
