// Which rules an event sets off, and where a chain of rules stops (pure).
import { expect } from 'chai';
import { decideTriggers, MAX_CHAIN } from '../../src/capabilities/automation/automation.decider.js';

const rule = (id: string, on: string[], enabledSeq = 0) => ({ id, on, enabledSeq });

describe('automation triggering (decider)', () => {
  const rules = [rule('a', ['conversation.tagged']), rule('b', ['conversation.tagged', 'conversation.created']), rule('c', ['conversation.created'], 10)];

  it('sets off the rules that name the event type, in order, each starting a chain of itself', () => {
    const t = decideTriggers({ type: 'conversation.tagged', seq: 5 }, [], rules);
    expect(t.fire.map((f) => [f.rule.id, f.chain])).to.deep.equal([
      ['a', ['a']],
      ['b', ['b']],
    ]);
    expect(t.stopped).to.deep.equal([]);
  });

  it('skips a rule for events committed before it was created or last enabled', () => {
    expect(decideTriggers({ type: 'conversation.created', seq: 10 }, [], rules).fire.map((f) => f.rule.id)).to.deep.equal(['b']);
    expect(decideTriggers({ type: 'conversation.created', seq: 11 }, [], rules).fire.map((f) => f.rule.id)).to.deep.equal(['b', 'c']);
  });

  it('never runs a rule twice in one chain', () => {
    const t = decideTriggers({ type: 'conversation.tagged', seq: 5 }, ['a'], rules);
    expect(t.fire.map((f) => [f.rule.id, f.chain])).to.deep.equal([['b', ['a', 'b']]]);
    expect(t.stopped.map((s) => [s.rule.id, s.reason, s.chain])).to.deep.equal([['a', 'repeat', ['a', 'a']]]);
  });

  it(`stops a chain of ${MAX_CHAIN} rules: the next one is not run`, () => {
    const chain = ['x', 'y', 'z'].slice(0, MAX_CHAIN);
    const t = decideTriggers({ type: 'conversation.tagged', seq: 5 }, chain, rules);
    expect(t.fire).to.deep.equal([]);
    expect(t.stopped.map((s) => [s.rule.id, s.reason])).to.deep.equal([
      ['a', 'depth'],
      ['b', 'depth'],
    ]);
    // One shorter still runs.
    expect(decideTriggers({ type: 'conversation.tagged', seq: 5 }, chain.slice(1), rules).fire.map((f) => f.chain)).to.deep.equal([
      [...chain.slice(1), 'a'],
      [...chain.slice(1), 'b'],
    ]);
  });
});
