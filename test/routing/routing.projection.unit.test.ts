// Routing's read models as pure folds: members' availability and capacity, teams' rules, and the round-robin cursor
// the conversations projector keeps from routing's assignment parts (what a rebuild gives again).
import { expect } from 'chai';
import { conversationsProjector } from '../../src/capabilities/conversations/conversations.projection.js';
import { membersProjector } from '../../src/capabilities/members/members.projection.js';
import { teamsProjector } from '../../src/capabilities/teams/teams.projection.js';
import { MemoryTables } from '../support/memory-tables.js';

const M = '00000000-0000-4000-8000-0000000000b1';
const [A, B] = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'];
const TEAM = '00000000-0000-4000-8000-0000000000e1';
const C = '00000000-0000-4000-8000-00000000000c';
const assignment = (part_id: string, assignee_id: string, routed: boolean) => ({
  type: 'conversation_part.created',
  aggregate_type: 'conversation',
  aggregate_id: C,
  payload: {
    conversation_id: C,
    part_id,
    part_type: 'assignment',
    channel_id: '00000000-0000-4000-8000-0000000000c1',
    author: routed ? { type: 'system', id: 'routing' } : { type: 'member', id: M },
    body: null,
    assignee_id,
    ...(routed ? { assigned_by: { rule: 'round_robin', team_id: TEAM } } : {}),
  },
});

describe('routing projections (unit, no database)', () => {
  it('members: away with no capacity on joining; availability and capacity follow their events', () => {
    const t = new MemoryTables([membersProjector]).given({
      type: 'member.joined',
      aggregate_type: 'member',
      aggregate_id: M,
      payload: { member_id: M, user_id: A, email: 'a@example.com', name: 'A', role: 'agent' },
    });
    expect(t.row('members', { id: M })).to.include({ availability: 'away', capacity: null });
    t.given(
      { type: 'member.availability_changed', aggregate_type: 'member', aggregate_id: M, payload: { member_id: M, from: 'away', to: 'online' } },
      { type: 'member.capacity_changed', aggregate_type: 'member', aggregate_id: M, payload: { member_id: M, from: null, to: 3, changed_by: B } },
    );
    expect(t.row('members', { id: M })).to.include({ availability: 'online', capacity: 3 });
  });

  it('teams: a new team assigns nothing; its rule follows team.assignment_changed', () => {
    const t = new MemoryTables([teamsProjector]).given({
      type: 'team.created',
      aggregate_type: 'team',
      aggregate_id: TEAM,
      payload: { id: TEAM, name: 'Tier 1' },
    });
    expect(t.row('teams', { id: TEAM })).to.include({ assignment: 'none' });
    t.given({ type: 'team.assignment_changed', aggregate_type: 'team', aggregate_id: TEAM, payload: { id: TEAM, from: 'none', to: 'balanced' } });
    expect(t.row('teams', { id: TEAM })).to.include({ assignment: 'balanced' });
  });

  it("the cursor: the member routing last assigned to for the team (the batch's last); a teammate's assignment leaves it; the team's deletion drops it", () => {
    const t = new MemoryTables([conversationsProjector]).given(
      assignment('00000000-0000-4000-8000-000000000001', A, true),
      assignment('00000000-0000-4000-8000-000000000002', B, true),
    );
    expect(t.rows('conversation_routing')).to.have.length(1);
    expect(t.row('conversation_routing', { team_id: TEAM })).to.include({ last_assignee_id: B });
    t.given(assignment('00000000-0000-4000-8000-000000000003', A, false));
    expect(t.row('conversation_routing', { team_id: TEAM })).to.include({ last_assignee_id: B });
    t.given({
      type: 'team.deleted',
      aggregate_type: 'team',
      aggregate_id: TEAM,
      payload: { id: TEAM, name: 'Tier 1', conversation_ids: [], channel_ids: [] },
    });
    expect(t.rows('conversation_routing')).to.deep.equal([]);
  });
});
