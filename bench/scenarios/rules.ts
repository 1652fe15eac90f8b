// rules: how soon an automation rule's action is done after the event that set
// it off, with 50 rules enabled in the workspace, under a steady write load,
// against the webhook delivery latency measured in the same run at the same rate
// (the webhook row's own measurement, webhookDelivery): both are a worker acting
// on a committed event.
//
// One workspace of its own, one tag, 50 enabled rules on
// `conversation_part.created`, made through the API: 49 whose `if` never
// matches (priority urgent and a subject keyword; the conversations are of
// normal priority), then one that matches every open conversation and adds the
// tag. New conversations (`POST /api/conversations`, one part each) are written
// at a steady 20/s (the stream row's pace) for the webhook row's duration, each
// request sent on schedule without waiting for the one before; the service's
// own rules worker does the rest. A rule's lag is read from its run log after
// the load (`automation_actions`): `finished_at` (stamped when the action's
// command starts, and settled in its transaction) minus `event_at` (the
// triggering event's `created_at`, stamped when its command started). A reader
// in a process of its own also sees both commits (commit-observer.ts), for the
// same lag from commit to commit. Bounded in count (the requests) and time (each
// request, and the wait for the actions: until every 201 has its action done, at
// most 30 s).
//
// Why 20/s: the runner does one action at a time per process, each a command
// through the workspace's group commit, so it keeps up only while a command's
// latency is under 1/rate; at the webhook row's 200/s it falls behind on this
// machine and the lag is the backlog, which grows with the run's length
// (BENCH_RULES_RATE=200 shows it).
import { startDaemon } from '../lib/child.js';
import { row, unavailable } from '../lib/report.js';
import { sleep, steady, summarize } from '../lib/stats.js';
import type { ObserverCall, ObserverInput, Seen } from '../workers/commit-observer.js';
import { auth, type Scenario } from './shared.js';
import { webhookDelivery } from './webhook.js';

const RULES = 50;
/** New conversations a second (BENCH_RULES_RATE: another, for exploring; the webhook baseline runs at the same rate). */
const RATE = 20;
const DRAIN_MS = 30_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** The warm-up, as the webhook row's: 20 writes at 50/s, their actions waited for. */
const WARM = { rate: 50, count: 20 };

export const rules: Scenario = {
  name: 'rules',
  aliases: ['automation'],
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const boot = await ctx.boot();
    const figure = 'p99 rule lag (event → the action done)';

    const rate = Number(process.env.BENCH_RULES_RATE) || RATE;
    // The baseline first, before any rule exists: the webhook row's measurement at the same rate, in a workspace of its own.
    const hook = await webhookDelivery(ctx, 'rules-hooks', rate);
    if (!hook) return [unavailable('rules', figure, 'POST /api/webhooks is not available in this build')];

    const t = await ctx.tenant('rules');
    const tag = await boot.http('POST', '/api/tags', { name: 'bench-rules' }, auth(t));
    if (tag.status !== 201) throw new Error(`POST /api/tags answered ${tag.status}: ${tag.text.slice(0, 300)}`);
    const tagId = tag.body.id as string;
    const unmatched = [{ priority: 'high' }, { tags_add: [tagId] }, { note: 'Escalated by a bench rule.' }];
    for (let i = 0; i < RULES - 1; i++) {
      const r = await boot.http(
        'POST',
        '/api/automation_rules',
        {
          name: `Bench escalation ${i}`,
          on: ['conversation_part.created'],
          if: {
            operator: 'AND',
            value: [
              { field: 'priority', operator: '=', value: 'urgent' },
              { field: 'subject', operator: '~', value: `escalation-${i}` },
            ],
          },
          then: [unmatched[i % unmatched.length]],
        },
        auth(t),
      );
      if (r.status === 404 && i === 0) return [unavailable('rules', figure, 'POST /api/automation_rules is not available in this build')];
      if (r.status !== 201) throw new Error(`POST /api/automation_rules answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    const matching = await boot.expect(
      201,
      'POST',
      '/api/automation_rules',
      {
        name: 'Bench tag every open conversation',
        on: ['conversation_part.created'],
        if: { field: 'state', operator: '=', value: 'open' },
        then: [{ tags_add: [tagId] }],
      },
      auth(t),
    );
    const ruleId = matching.body.id as string;

    let failures = 0;
    let firstError: string | null = null;
    const write = (mark: string) => async (i: number) => {
      try {
        const r = await fetch(`${svc.url}/api/conversations`, {
          method: 'POST',
          headers: { ...auth(t), 'content-type': 'application/json', 'idempotency-key': `rules-${mark}-${i}` },
          body: JSON.stringify({
            channel_id: t.channelId,
            body: 'Hello, my order has not arrived yet.',
            subject: `Order ${i}`,
            contact: { external_id: `rules-contact-${i % 1000}`, name: `Customer ${i % 1000}` },
          }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await r.arrayBuffer();
        if (r.status !== 201) {
          failures++;
          firstError ??= `${r.status}`;
        }
      } catch (e) {
        failures++;
        firstError ??= (e as Error).message;
      }
    };
    const head = async () => Number((await boot.db.raw('SELECT coalesce(max(seq), 0) AS seq FROM events WHERE tenant_id = ?', [t.workspaceId])).rows[0].seq);
    const counts = async (afterSeq: number) => {
      const r = (
        await boot.db.raw(
          `SELECT count(*) FILTER (WHERE rule_id = ?) AS decided, count(*) FILTER (WHERE rule_id = ? AND status <> 'pending') AS done,
                  count(*) FILTER (WHERE rule_id <> ?) AS others
             FROM automation_actions WHERE tenant_id = ? AND seq > ?`,
          [ruleId, ruleId, ruleId, t.workspaceId, afterSeq],
        )
      ).rows[0];
      return { decided: Number(r.decided), done: Number(r.done), others: Number(r.others) };
    };
    /** Until the matching rule has done an action per 201 written after `afterSeq` (each new conversation: one part event). */
    const drain = async (afterSeq: number, want: number) => {
      const until = Date.now() + DRAIN_MS;
      let c = await counts(afterSeq);
      while (c.done < want && Date.now() < until) {
        await sleep(100);
        c = await counts(afterSeq);
      }
      return c;
    };

    // Warm-up: the rules reach the worker's view (its set of workspaces with rules); wait until actions flow.
    const warmFrom = await head();
    await steady(WARM.rate, WARM.count, write('warm'));
    const warmed = await drain(warmFrom, WARM.count - failures);
    if (warmed.done === 0) throw new Error(`no rule action was done within ${DRAIN_MS} ms of the warm-up (${failures} writes failed; first: ${firstError})`);
    failures = 0;
    firstError = null;

    const count = Math.round(rate * ctx.sizes.webhookS);
    // Commits as a reader in a process of its own sees them: each conversation's part (the trigger) and its tag (the action).
    const observer = await startDaemon<{ fromSeq: number }>('commit-observer.ts', { url: ctx.dbs.mainUrl, tenantId: t.workspaceId } satisfies ObserverInput);
    const from = observer.ready.fromSeq;
    const { driveS, written, drained, seen } = await (async () => {
      try {
        const driveS = await steady(rate, count, write('run'));
        const written = count - failures;
        const drained = await drain(from, written);
        return { driveS, written, drained, seen: await observer.call<Seen[]>({ cmd: 'take' } satisfies ObserverCall) };
      } finally {
        await observer.stop();
      }
    })();
    const rows: { conversation_id: string; lag_ms: string; decide_ms: string; act_ms: string; status: string }[] = (
      await boot.db.raw(
        `SELECT conversation_id, extract(epoch FROM finished_at - event_at) * 1000 AS lag_ms, extract(epoch FROM decided_at - event_at) * 1000 AS decide_ms,
                extract(epoch FROM finished_at - decided_at) * 1000 AS act_ms, status
           FROM automation_actions WHERE tenant_id = ? AND rule_id = ? AND seq > ? AND status <> 'pending'`,
        [t.workspaceId, ruleId, from],
      )
    ).rows;
    const ok = rows.filter((r) => r.status === 'succeeded');
    const statuses: Record<string, number> = {};
    for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const lag = summarize(ok.map((r) => Number(r.lag_ms)));
    const decide = summarize(ok.map((r) => Number(r.decide_ms)));
    const act = summarize(ok.map((r) => Number(r.act_ms)));
    // Commit to commit: the trigger's part, then the rule's tag (the only tagging in this workspace), as the observer saw them.
    const partSeen = new Map<string, number>();
    const tagSeen = new Map<string, number>();
    for (const e of seen) {
      if (e.type === 'conversation_part.created' && !partSeen.has(e.aggregateId)) partSeen.set(e.aggregateId, e.at);
      if (e.type === 'conversation.tagged' && !tagSeen.has(e.aggregateId)) tagSeen.set(e.aggregateId, e.at);
    }
    const commitLags = ok.flatMap((r) => {
      const a = partSeen.get(r.conversation_id);
      const b = tagSeen.get(r.conversation_id);
      return a === undefined || b === undefined ? [] : [b - a];
    });
    const commit = summarize(commitLags);
    const missing = written - drained.done;
    const notOk = rows.length - ok.length;
    const problems = [
      missing > 0 ? `${missing} of ${written} actions not done ${DRAIN_MS} ms after the load` : null,
      notOk > 0 ? `${notOk} actions not succeeded (${JSON.stringify(statuses)})` : null,
      failures > 0 ? `${failures} writes failed (first: ${firstError})` : null,
      drained.others > 0 ? `${drained.others} actions decided by the 49 rules that should not match` : null,
      hook.missing > 0 ? `${hook.missing} webhook deliveries never arrived within 30 s` : null,
    ].filter(Boolean);
    const bad = missing > 0 || hook.missing > 0 || ok.length === 0;
    return [
      row({
        scenario: 'rules',
        figure: `${figure}, ${RULES} rules enabled (1 matching), new conversations at ${rate}/s for ${ctx.sizes.webhookS} s`,
        unit: 'ms',
        ours: bad ? null : lag.p99,
        baselineLabel: `webhook delivery p99 (append → receiver), same run, ${rate}/s`,
        baseline: hook.fromAppend.p99,
        target: { kind: 'none' },
        note: [
          `${ok.length} actions (tags_add, one per new conversation); lag = finished_at − event_at from the run log: p50 ${lag.p50.toFixed(1)} ms${bad ? `, p99 ${lag.p99.toFixed(1)} ms over those done` : ''}, max ${lag.max.toFixed(1)} ms; decided (decided_at − event_at) p50 ${decide.p50.toFixed(1)} / p99 ${decide.p99.toFixed(1)} ms, then done (finished_at − decided_at) p50 ${act.p50.toFixed(1)} / p99 ${act.p99.toFixed(1)} ms; commit → commit as a LISTENing reader saw them p50 ${commit.p50.toFixed(1)} / p99 ${commit.p99.toFixed(1)} ms (${commit.n} pairs); webhook p50 ${hook.fromAppend.p50.toFixed(1)} ms over ${hook.delivered} deliveries`,
          ...problems,
        ].join('; '),
        details: {
          rules: RULES,
          rate,
          requests: count,
          written,
          write_failures: failures,
          drive_seconds: driveS,
          actions: ok.length,
          statuses,
          missing,
          unmatched_rules_actions: drained.others,
          lag_ms: lag,
          decided_ms: decide,
          done_after_decided_ms: act,
          commit_to_commit_ms: commit,
          webhook: hook,
        },
        ...(bad ? { status: 'fail' as const } : {}),
      }),
    ];
  },
};
