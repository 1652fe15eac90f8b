// Automation rules through the API, with the service's own workers running:
// created, listed in order, changed, reordered, deleted and refused with coded
// 4xx; every action seen on the conversation it changed (acting as the rule, on
// its events and in the audit log); a two-rule loop stopped by the loop rules
// and shown on both rules; the dry run, which changes nothing; and a call to a
// URL, received with a signature that checks with the rule's secret. Each wait
// is for a cause: the rule's run log, or the receiver's request.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { ADMIN_SCOPES } from '../support/service.js';
import { eventually } from '../support/events.js';
import { insertActions, pruneActions, RUN_LOG_DAYS } from '../../src/capabilities/automation/automation.repo.js';

interface Run {
  status: string;
  action_index: number;
  conversation_id: string;
  seq: number;
  error: { code: string } | null;
}

describe('automation rules', function () {
  this.timeout(120_000);
  // A webhook endpoint for an event no rule here causes: the fixture's receiver, and 127.0.0.1 allowed.
  const fx = capabilityFixture('automation', { scopes: [...ADMIN_SCOPES, 'audit:read', 'members:invite'], webhook: { events: ['contact.merged'] } });
  const rules = () => fx.t.client.get('/api/automation_rules', fx.as());
  const create = (body: unknown) => fx.t.client.post('/api/automation_rules', body, fx.as());
  const runs = async (ruleId: string): Promise<Run[]> => (await fx.ok(fx.t.client.get(`/api/automation_rules/${ruleId}/actions?per_page=100`, fx.as()))).data;
  /** Waits until the rule has `n` actions with an outcome (none pending). */
  const ran = (ruleId: string, n: number) =>
    eventually(
      () => runs(ruleId),
      (r) => r.length >= n && r.every((x) => x.status !== 'pending'),
      30_000,
    );
  const converse = async (tag: string, channel = fx.channel.id) =>
    fx.ok(fx.t.client.post('/api/conversations', { channel_id: channel, body: `Hello ${tag}`, contact: { email: `${tag}@example.com` } }, fx.as()), 201);
  const conversation = (id: string) => fx.ok(fx.t.client.get(`/api/conversations/${id}`, fx.as()));

  afterEach(async () => {
    for (const r of (await fx.ok(rules())).data) await fx.ok(fx.t.client.delete(`/api/automation_rules/${r.id}`, fx.as()));
  });

  it('is created (with its secret, once), listed in order, changed, reordered and deleted, each as its event', async () => {
    const a = await fx.spec({
      when: () => create({ name: 'Urgent VIPs', on: ['conversation.created'], then: [{ priority: 'urgent' }] }),
      then: {
        status: 201,
        body: { type: 'automation_rule', name: 'Urgent VIPs', enabled: true, position: 0, on: ['conversation.created'], if: null, loop: null },
        events: ['automation_rule.created'],
      },
    });
    expect(a.secret).to.match(/^whsec_/);
    const b = await fx.ok(create({ name: 'Second', enabled: false, on: ['conversation.tagged'], then: [{ close: true }] }), 201);
    expect(b.position).to.equal(1);
    const got = await fx.ok(fx.t.client.get(`/api/automation_rules/${a.id}`, fx.as()));
    expect(got).to.not.have.property('secret');
    expect(got.then).to.deep.equal([{ priority: 'urgent' }]);

    await fx.spec({
      when: () => fx.t.client.put(`/api/automation_rules/${b.id}`, { name: 'Renamed', enabled: true }, fx.as()),
      then: { status: 200, body: { name: 'Renamed', enabled: true }, events: ['automation_rule.updated'] },
    });
    // The same again changes nothing.
    await fx.spec({ when: () => fx.t.client.put(`/api/automation_rules/${b.id}`, { name: 'Renamed' }, fx.as()), then: { status: 200, events: [] } });

    const reordered = await fx.spec({
      when: () => fx.t.client.post('/api/automation_rules/reorder', { ids: [b.id, a.id] }, fx.as()),
      then: { status: 200, events: ['automation_rule.reordered'] },
    });
    expect(reordered.data.map((r: { id: string; position: number }) => [r.id, r.position])).to.deep.equal([
      [b.id, 0],
      [a.id, 1],
    ]);
    expect((await fx.ok(rules())).data.map((r: { id: string }) => r.id)).to.deep.equal([b.id, a.id]);

    await fx.spec({
      when: () => fx.t.client.delete(`/api/automation_rules/${b.id}`, fx.as()),
      then: { status: 200, body: { type: 'automation_rule', id: b.id, deleted: true }, events: ['automation_rule.deleted'] },
    });
    expect((await fx.t.client.get(`/api/automation_rules/${b.id}`, fx.as())).status).to.equal(404);
    // A new rule goes last, after a gap a deletion left.
    const c = await fx.ok(create({ name: 'Third', on: ['conversation.created'], then: [{ close: true }] }), 201);
    expect(c.position).to.equal(2);
    expect((await fx.ok(rules())).data.map((r: { id: string }) => r.id)).to.deep.equal([a.id, c.id]);
  });

  it('refuses a bad rule with a coded 4xx, and changes nothing', async () => {
    const refused = async (body: unknown, status: number, code: string, field?: string) => {
      const r = await fx.spec({ when: () => create(body), then: { status, events: [] } });
      expect(r.errors[0].code, JSON.stringify(r)).to.equal(code);
      if (field) expect(r.errors[0].field).to.equal(field);
    };
    const base = { name: 'Bad', on: ['conversation.created'], then: [{ close: true }] };
    await refused({ ...base, on: ['contact.created'] }, 400, 'invalid_field', 'on[0]');
    await refused({ ...base, if: { field: 'nope', operator: '=', value: 1 } }, 400, 'invalid_query');
    await refused({ ...base, then: [{ close: true, priority: 'low' }] }, 400, 'invalid_field');
    await refused({ ...base, then: [] }, 400, 'invalid_field');
    await refused({ ...base, then: [{ call_url: 'http://169.254.169.254/latest' }] }, 400, 'webhook_url_forbidden', 'then[0].call_url');
    await refused(
      { ...base, then: [{ call_url: `${fx.receiver.url}/a` }, { note: 'x' }, { call_url: `${fx.receiver.url}/b` }] },
      400,
      'invalid_field',
      'then[2].call_url',
    );
    const a = await fx.ok(create(base), 201);
    const r = await fx.t.client.post('/api/automation_rules/reorder', { ids: [a.id, a.id] }, fx.as());
    expect(r.status).to.equal(400);
    expect(r.body.errors[0].code).to.equal('invalid_field');
  });

  it('runs every action on the conversation, each once, acting as the rule', async () => {
    const team = await fx.ok(fx.t.client.post('/api/teams', { name: 'Rules team' }, fx.as()), 201);
    const tag = await fx.ok(fx.t.client.post('/api/tags', { name: 'ruled' }, fx.as()), 201);
    await fx.ok(fx.t.client.post('/api/conversation_attributes', { name: 'tier', data_type: 'string' }, fx.as()), 201);
    const saved = await fx.ok(fx.t.client.post('/api/saved-replies', { name: 'Thanks', body: 'Thanks {{contact.email}}!' }, fx.as()), 201);
    const member = fx.owner.memberId;
    // A bridge that receives the channel's replies (the fixture's receiver).
    const bridge = await fx.ok(
      fx.t.client.post(
        '/api/channels',
        {
          kind: 'api',
          name: 'Rules bridge',
          default_team_id: null,
          webhook_secret: 'rules-bridge-secret-0123456789',
          webhook_url: `${fx.receiver.url}/bridge`,
        },
        fx.as(),
      ),
      201,
    );
    const cases: { action: Record<string, unknown>; channel?: string; check: (c: any, id: string) => Promise<void> | void }[] = [
      { action: { assign: member }, check: (c) => void expect(c.assignee_id).to.equal(member) },
      { action: { team: team.id }, check: (c) => void expect(c.team_id).to.equal(team.id) },
      { action: { tags_add: [tag.id] }, check: (c) => void expect(c.tags.map((t: { id: string }) => t.id)).to.deep.equal([tag.id]) },
      { action: { priority: 'high' }, check: (c) => void expect(c.priority).to.equal('high') },
      { action: { set_attribute: { name: 'tier', value: 'gold' } }, check: (c) => void expect(c.custom_attributes).to.deep.equal({ tier: 'gold' }) },
      { action: { close: true }, check: (c) => void expect(c.state).to.equal('closed') },
      { action: { snooze_for_seconds: 3600 }, check: (c) => void expect(c.state).to.equal('snoozed') },
      {
        action: { note: 'Seen by a rule' },
        check: async (_c, id) => {
          const parts = (await conversation(id)).parts;
          expect(parts.filter((p: any) => p.part_type === 'note').map((p: any) => p.body)).to.deep.equal(['Seen by a rule']);
        },
      },
      {
        action: { reply_with: saved.id },
        channel: bridge.id,
        check: async (_c, id) => {
          const parts = (await conversation(id)).parts;
          expect(parts.filter((p: any) => p.part_type === 'comment' && p.author.type === 'system').map((p: any) => p.body)).to.deep.equal([
            'Thanks each-reply_with@example.com!',
          ]);
          // Sent to the channel's bridge as a teammate's reply is.
          const reply = parts.find((p: any) => p.part_type === 'comment' && p.author.type === 'system');
          await eventually(
            () => fx.receiver.bodies(),
            (bodies: any[]) => bodies.some((b) => b.type === 'conversation_part.created' && b.payload.part_id === reply.id),
          );
        },
      },
    ];
    for (const { action, channel, check } of cases) {
      const kind = Object.keys(action)[0]!;
      const rule = await fx.ok(create({ name: `Each ${kind}`, on: ['conversation.created'], then: [action] }), 201);
      const c = await converse(`each-${kind}`, channel);
      const [run] = await ran(rule.id, 1);
      expect(run, kind).to.include({ status: 'succeeded', action_index: 0, conversation_id: c.id, error: null });
      await check(await conversation(c.id), c.id);
      // Its events act as the rule; the audit log names it.
      const events = await fx.t.testDb.db('events').where({ tenant_id: fx.owner.workspaceId }).whereRaw("metadata->'actor'->>'id' = ?", [rule.id]);
      expect(events.length, kind).to.be.greaterThan(0);
      expect(events.every((e) => e.metadata.actor.type === 'rule' && e.aggregate_id === c.id)).to.equal(true);
      await fx.ok(fx.t.client.delete(`/api/automation_rules/${rule.id}`, fx.as()));
    }
    const audit = await fx.ok(fx.t.client.get('/api/audit_log?per_page=100', fx.as()));
    expect(audit.data.some((a: { actor: { type: string } }) => a.actor.type === 'rule')).to.equal(true);
    // Counted: the runs, and the actions by outcome (sampled from the run logs at scrape).
    const metrics = (await fx.t.client.get('/metrics')).text;
    const sample = (line: RegExp) => Number(line.exec(metrics)?.[1] ?? NaN);
    expect(sample(/^service_automation_runs (\S+)$/m)).to.be.at.least(cases.length);
    expect(sample(/^service_automation_actions\{status="succeeded"\} (\S+)$/m)).to.be.at.least(cases.length);
    expect(sample(/^service_automation_actions\{status="pending"\} (\S+)$/m)).to.equal(0);
  });

  it('records a decision of more actions than one statement can bind (6,000 here), each once', async () => {
    const db = fx.t.testDb.db;
    const ruleId = '00000000-0000-4000-8000-0000000000bb';
    const rows = Array.from({ length: 6000 }, (_, i) => ({
      rule_id: ruleId,
      seq: 1_000_000 + Math.floor(i / 10),
      idx: i % 10,
      position: 0,
      conversation_id: '00000000-0000-4000-8000-0000000000cc',
      event_type: 'conversation_part.created',
      event_at: new Date(),
      chain: [ruleId],
      action: { note: 'x' },
    }));
    const tenant = fx.owner.workspaceId;
    await db.transaction((trx) => insertActions(trx, tenant, rows, new Date()));
    // Decided again (a batch redone): nothing new.
    await db.transaction((trx) => insertActions(trx, tenant, rows, new Date()));
    const counted = await db('automation_actions').where({ tenant_id: tenant, rule_id: ruleId }).count({ n: '*' });
    expect(Number(counted[0]?.n)).to.equal(6000);
    await db('automation_actions').where({ tenant_id: tenant, rule_id: ruleId }).del();
  });

  it('keeps a run log for 30 days: older outcomes are forgotten, newer ones and pending ones stay', async () => {
    const rule = await fx.ok(create({ name: 'Logged', on: ['conversation.created'], then: [{ priority: 'low' }] }), 201);
    const [a, b] = [await converse('log-a'), await converse('log-b')];
    await ran(rule.id, 2);
    const db = fx.t.testDb.db;
    const now = new Date();
    await db('automation_actions')
      .where({ rule_id: rule.id, conversation_id: a.id })
      .update({ finished_at: new Date(now.getTime() - 31 * 86_400_000) });
    expect(await pruneActions(db, new Date(now.getTime() - RUN_LOG_DAYS * 86_400_000))).to.equal(1);
    expect((await runs(rule.id)).map((r) => r.conversation_id)).to.deep.equal([b.id]);
  });

  it('matches by its `if`, and a refused action is failed with the code the request would get', async () => {
    const rule = await fx.ok(
      create({
        name: 'Only urgent',
        on: ['conversation_part.created'],
        if: { field: 'priority', operator: '=', value: 'urgent' },
        then: [{ assign: '00000000-0000-4000-8000-0000000000aa' }],
      }),
      201,
    );
    const plain = await converse('plain');
    const urgent = await converse('urgent');
    await fx.ok(fx.t.client.post(`/api/conversations/${urgent.id}/parts`, { message_type: 'priority', priority: 'urgent' }, fx.as()), 201);
    const [run] = await ran(rule.id, 1);
    expect(run!.conversation_id).to.equal(urgent.id);
    expect(run!.status).to.equal('failed');
    expect(run!.error!.code).to.be.a('string');
    expect((await runs(rule.id)).map((r) => r.conversation_id)).to.not.include(plain.id);
  });

  it('stops a two-rule loop: neither rule runs twice in one chain, and both show the loop', async () => {
    // The conversation first: a rule applies to what is committed after it, so only the change below sets them off.
    const c = await converse('loop');
    const a = await fx.ok(
      create({ name: 'Loop A', on: ['conversation_part.created'], if: { field: 'priority', operator: '=', value: 'low' }, then: [{ note: 'A' }] }),
      201,
    );
    const b = await fx.ok(
      create({ name: 'Loop B', on: ['conversation_part.created'], if: { field: 'priority', operator: '=', value: 'low' }, then: [{ note: 'B' }] }),
      201,
    );
    await fx.ok(fx.t.client.post(`/api/conversations/${c.id}/parts`, { message_type: 'priority', priority: 'low' }, fx.as()), 201);
    // The person's change sets off A and B; A's note sets off B (chain A, B), B's note sets off A (chain B, A); there it ends.
    await ran(a.id, 2);
    await ran(b.id, 2);
    const notes = await eventually(
      async () => (await conversation(c.id)).parts.filter((p: any) => p.part_type === 'note'),
      (n: unknown[]) => n.length >= 4,
    );
    expect(notes.map((p: any) => p.body).sort()).to.deep.equal(['A', 'A', 'B', 'B']);
    const chains = (
      await fx.t.testDb.db('events').where({ tenant_id: fx.owner.workspaceId, aggregate_id: c.id }).whereRaw("metadata->'actor'->>'type' = 'rule'")
    ).map((e) => e.metadata.actor.chain.join('>'));
    expect(chains.sort()).to.deep.equal([a.id, `${a.id}>${b.id}`, b.id, `${b.id}>${a.id}`].sort());
    const shown = await eventually(
      async () => (await fx.ok(rules())).data,
      (list: any[]) => list.every((r) => r.loop !== null),
    );
    for (const r of shown) expect(r.loop.reason).to.equal('repeat');
    // Settled: nothing more ran.
    expect(await runs(a.id)).to.have.length(2);
  });

  it('answers a dry run with whether it matches and what it would do, changing nothing', async () => {
    const rule = await fx.ok(
      create({
        name: 'Dry',
        on: ['conversation.created'],
        enabled: false,
        if: { field: 'state', operator: '=', value: 'closed' },
        then: [{ priority: 'low' }, { note: 'x' }],
      }),
      201,
    );
    const c = await converse('dry');
    const no = await fx.spec({
      when: () => fx.t.client.post(`/api/automation_rules/${rule.id}/test`, { conversation_id: c.id }, fx.as()),
      then: { status: 200, events: [] },
    });
    expect(no).to.deep.include({ type: 'automation_rule_test', rule_id: rule.id, conversation_id: c.id, matches: false, enabled: false, actions: [] });
    await fx.ok(fx.t.client.post(`/api/conversations/${c.id}/parts`, { message_type: 'close' }, fx.as()), 201);
    const yes = await fx.spec({
      when: () => fx.t.client.post(`/api/automation_rules/${rule.id}/test`, { conversation_id: c.id }, fx.as()),
      then: { status: 200, events: [] },
    });
    expect(yes.matches).to.equal(true);
    expect(yes.actions.map((a: { description: string }) => a.description)).to.deep.equal(['set priority low', 'add a note']);
    const unknown = await fx.t.client.post(`/api/automation_rules/${rule.id}/test`, { conversation_id: '00000000-0000-4000-8000-000000000001' }, fx.as());
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0].code).to.equal('unknown_conversation');
  });

  it("calls a URL with the event and the conversation, signed with the rule's secret, in its delivery log", async () => {
    const rule = await fx.ok(create({ name: 'Call', on: ['conversation.created'], then: [{ call_url: `${fx.receiver.url}/rule` }] }), 201);
    const c = await fx.ok(
      fx.t.client.post(
        '/api/conversations',
        { channel_id: fx.channel.id, subject: 'Refund for order 77', body: 'Hello call', contact: { email: 'call@example.com' } },
        fx.as(),
      ),
      201,
    );
    const got = (
      await eventually(
        () => fx.receiver.received.filter((r) => r.path.endsWith('/rule')),
        (r) => r.length > 0,
      )
    )[0];
    const expected = createHmac('sha256', rule.secret).update(got!.raw).digest('hex');
    expect(got!.headers['x-service-signature']).to.equal(expected);
    const body = JSON.parse(got!.raw.toString('utf8'));
    expect(body).to.include({ type: 'automation_rule.call', rule_id: rule.id, action_index: 0 });
    expect(body.event).to.include({ type: 'conversation.created', aggregate_id: c.id });
    expect(body.conversation).to.include({ type: 'conversation', id: c.id, subject: 'Refund for order 77' });
    // At rest the call keeps the conversation's personal fields sealed (opened when sent; an erasure forgets them).
    const [stored] = await fx.t.testDb.db('webhook_deliveries').where({ tenant_id: fx.owner.workspaceId, target_kind: 'rule', target_id: rule.id });
    expect(stored!.body).to.include('$sealed_value');
    expect(stored!.body).to.not.include('Refund for order 77');
    expect(stored!.body).to.not.include('Hello call');
    const log = await eventually(
      async () => (await fx.ok(fx.t.client.get(`/api/automation_rules/${rule.id}/deliveries`, fx.as()))).data,
      (d: any[]) => d.length === 1 && d[0].state === 'delivered',
    );
    expect(log[0].seq).to.equal(body.event.seq);
    // Republished: the same bytes again, signed the same, as a new record of the log.
    const again = await fx.ok(fx.t.client.post(`/api/automation_rules/${rule.id}/deliveries/${log[0].id}/retry`, {}, fx.as()), 201);
    expect(again).to.include({ seq: body.event.seq, republished: true });
    const calls = await eventually(
      () => fx.receiver.received.filter((r) => r.path.endsWith('/rule')),
      (r) => r.length === 2,
    );
    expect(calls[1]!.raw.equals(got!.raw)).to.equal(true);
    expect(calls[1]!.headers['x-service-signature']).to.equal(expected);
    const unknown = await fx.t.client.post(`/api/automation_rules/${rule.id}/deliveries/00000000-0000-4000-8000-000000000009/retry`, {}, fx.as());
    expect(unknown.status).to.equal(404);
  });
});
