// The SLA rules on their own: what a decision emits from a conversation's facts and its SLA as it stands.
import { expect } from 'chai';
import {
  decideCreatePolicy,
  decideSla,
  NO_SLA,
  policyFor,
  type CurrentSla,
  type Policy,
  type SlaFacts,
  type SlaState,
} from '../../src/capabilities/sla/sla.decider.js';
import type { SlaEvent } from '../../src/capabilities/sla/sla.events.js';

const at = (s: string) => new Date(`2026-03-02T${s}Z`);
const policy: Policy = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'p',
  match: {},
  first_response_target_seconds: 600,
  next_response_target_seconds: 300,
  resolution_target_seconds: 3600,
  business_hours: false,
};
const facts = (over: Partial<SlaFacts> = {}): SlaFacts => ({
  conversationId: '00000000-0000-4000-8000-0000000000c1',
  createdAt: at('10:00:00'),
  state: 'open',
  stateChangedAt: at('10:00:00'),
  priority: 'normal',
  teamId: null,
  channelId: '00000000-0000-4000-8000-0000000000a1',
  firstResponseAt: null,
  lastResponseAt: null,
  awaitingSince: at('10:00:00'),
  lastClosedAt: null,
  ...over,
});

/** The SLA a sequence of decisions leaves, as the projection keeps it. */
function apply(cur: CurrentSla | null, events: SlaEvent[]): CurrentSla {
  let c: CurrentSla = cur ?? NO_SLA;
  const d = (s: string | null) => (s ? new Date(s) : null);
  for (const e of events) {
    if (e.type === 'conversation.sla_applied') {
      const p = e.payload;
      c = {
        ...c,
        policyId: p.policy_id,
        firstResponseDueAt: d(p.first_response_due_at),
        nextResponseDueAt: d(p.next_response_due_at),
        nextResponseSince: d(p.next_response_since),
        resolutionDueAt: d(p.resolution_due_at),
        resolutionRemainingSeconds: p.resolution_remaining_seconds,
      };
    } else if (e.type === 'conversation.sla_met' || e.type === 'conversation.sla_breached') {
      const t = e.payload.target;
      c = {
        ...c,
        ...(t === 'first_response' ? { firstResponseDueAt: null } : t === 'next_response' ? { nextResponseDueAt: null } : { resolutionDueAt: null }),
        settled: t === 'next_response' ? c.settled : [...c.settled, t],
      };
    }
  }
  return c;
}

const types = (events: SlaEvent[]) =>
  events.map((e) => (e.type === 'conversation.sla_met' || e.type === 'conversation.sla_breached' ? `${e.type}:${e.payload.target}` : e.type));

describe('SLA decider (unit)', () => {
  const state = (f: SlaFacts, current: CurrentSla | null): SlaState => ({ facts: f, current, policies: [policy], calendar: null });

  it('applies the first matching policy, then emits nothing more until something changes', () => {
    const e1 = decideSla(state(facts(), null), at('10:00:01'));
    expect(types(e1)).to.deep.equal(['conversation.sla_applied']);
    const cur = apply(null, e1);
    expect(cur.firstResponseDueAt).to.deep.equal(at('10:10:00'));
    expect(decideSla(state(facts(), cur), at('10:05:00'))).to.deep.equal([]);
  });

  it('a reply in time is met; a missed target is breached once', () => {
    const cur = apply(null, decideSla(state(facts(), null), at('10:00:01')));
    const met = decideSla(state(facts({ firstResponseAt: at('10:09:00'), lastResponseAt: at('10:09:00'), awaitingSince: null }), cur), at('10:09:01'));
    expect(types(met)).to.deep.equal(['conversation.sla_met:first_response']);
    const breached = decideSla(state(facts(), cur), at('10:10:00'));
    expect(types(breached)).to.deep.equal(['conversation.sla_breached:first_response']);
    expect(decideSla(state(facts(), apply(cur, breached)), at('10:20:00'))).to.deep.equal([]);
  });

  it('resolution pauses while snoozed and resumes with what it had left', () => {
    const replied = { firstResponseAt: at('10:01:00'), lastResponseAt: at('10:01:00'), awaitingSince: null };
    let cur = apply(null, decideSla(state(facts(replied), null), at('10:01:01')));
    expect(cur.resolutionDueAt).to.deep.equal(at('11:00:00'));
    // Snoozed at 10:20 with 40 minutes left: no due date while snoozed, and no breach at 11:00.
    const snoozed = facts({ ...replied, state: 'snoozed', stateChangedAt: at('10:20:00') });
    cur = apply(cur, decideSla(state(snoozed, cur), at('10:20:01')));
    expect(cur).to.include({ resolutionDueAt: null, resolutionRemainingSeconds: 2400 });
    expect(decideSla(state(snoozed, cur), at('12:00:00'))).to.deep.equal([]);
    // Opened again at 13:00: due 40 minutes later.
    const reopened = facts({ ...replied, state: 'open', stateChangedAt: at('13:00:00') });
    cur = apply(cur, decideSla(state(reopened, cur), at('13:00:01')));
    expect(cur).to.include({ resolutionRemainingSeconds: null });
    expect(cur.resolutionDueAt).to.deep.equal(at('13:40:00'));
  });

  it('closing settles resolution and cancels a pending first response; first response keeps running while snoozed', () => {
    const cur = apply(null, decideSla(state(facts(), null), at('10:00:01')));
    const snoozed = facts({ state: 'snoozed', stateChangedAt: at('10:02:00') });
    expect(types(decideSla(state(snoozed, cur), at('10:10:00')))).to.include('conversation.sla_breached:first_response');
    const closed = facts({ state: 'closed', stateChangedAt: at('10:05:00'), lastClosedAt: at('10:05:00') });
    const events = decideSla(state(closed, cur), at('10:05:01'));
    expect(types(events)).to.deep.equal(['conversation.sla_applied', 'conversation.sla_met:resolution']);
    expect(apply(cur, events)).to.include({ firstResponseDueAt: null, resolutionDueAt: null });
  });

  it('a customer message after a teammate reply starts a next-response target, met by the next reply', () => {
    const replied = { firstResponseAt: at('10:01:00'), lastResponseAt: at('10:01:00'), awaitingSince: null };
    let cur = apply(null, decideSla(state(facts(replied), null), at('10:01:01')));
    const waiting = facts({ ...replied, awaitingSince: at('10:30:00') });
    cur = apply(cur, decideSla(state(waiting, cur), at('10:30:01')));
    expect(cur.nextResponseDueAt).to.deep.equal(at('10:35:00'));
    const answered = facts({ ...replied, lastResponseAt: at('10:33:00') });
    expect(types(decideSla(state(answered, cur), at('10:33:01')))).to.deep.equal(['conversation.sla_applied', 'conversation.sla_met:next_response']);
  });
});

describe('SLA policies: match.query', () => {
  const queried: Policy = {
    ...policy,
    id: '00000000-0000-4000-8000-000000000002',
    match: { priority: ['urgent'], query: { field: 'subject', operator: '~', value: 'refund' } },
  };
  const fallback: Policy = { ...policy, id: '00000000-0000-4000-8000-000000000003' };

  it('applies a policy with a query only where the conversation matched it, and every other given key too', () => {
    expect(policyFor([queried, fallback], facts({ priority: 'urgent', queryMatches: [queried.id] }))?.id).to.equal(queried.id);
    expect(policyFor([queried, fallback], facts({ priority: 'urgent', queryMatches: [] }))?.id, 'query not matched').to.equal(fallback.id);
    expect(policyFor([queried, fallback], facts({ priority: 'urgent' }))?.id, 'no matches read').to.equal(fallback.id);
    expect(policyFor([queried, fallback], facts({ priority: 'normal', queryMatches: [queried.id] }))?.id, 'priority not matched').to.equal(fallback.id);
  });

  it('refuses a tree the filter language refuses: 400 invalid_query naming its path under match.query', () => {
    const input = { ...queried, match: { query: { field: 'subject', operator: '<', value: 3 } } };
    let caught: any;
    try {
      decideCreatePolicy(queried.id, input, 0);
    } catch (e) {
      caught = e;
    }
    expect(caught?.status).to.equal(400);
    expect(JSON.stringify(caught))
      .to.match(/invalid_query/)
      .and.to.match(/match\.query/);
    expect(decideCreatePolicy(queried.id, queried, 0)[0]!.payload).to.deep.include({ match: queried.match });
  });
});
