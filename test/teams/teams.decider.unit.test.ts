// Team rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import {
  decideCreateTeam,
  decideDeleteTeam,
  decideRenameTeam,
  decideRosters,
  type RosterEntry,
  type TeamView,
} from '../../src/capabilities/teams/teams.decider.js';
import { exactDecider } from '../support/decider-spec-exact.js';

const billing: TeamView = { id: 'team-1', name: 'Billing', memberIds: ['m1', 'm2'] };
const support: TeamView = { id: 'team-2', name: 'Support', memberIds: [] };

describe('teams decider (unit)', () => {
  const create = exactDecider(decideCreateTeam);
  const rename = exactDecider(decideRenameTeam);
  const remove = exactDecider((_: { id: string }, s: { team: TeamView | null; conversationIds: string[]; channelIds: string[] }) =>
    decideDeleteTeam(s.team, s),
  );
  const rosters = exactDecider((cmd: { entries: RosterEntry[]; single: boolean }, s: { teams: TeamView[]; activeMembers: string[] }) =>
    decideRosters(cmd.entries, { teams: new Map(s.teams.map((t) => [t.id, t])), activeMembers: new Set(s.activeMembers) }, { single: cmd.single }),
  );
  const workspace = { teams: [billing, support], activeMembers: ['m1', 'm2', 'm3'] };

  it('creating a team appends it', () => {
    create
      .given({ sameName: null })
      .when({ id: 'team-3', name: 'Sales' })
      .then({ type: 'team.created', aggregate_type: 'team', aggregate_id: 'team-3', payload: { id: 'team-3', name: 'Sales' } });
  });
  it('creating a team with a name another team holds (ignoring case) is refused', () => {
    create.given({ sameName: billing }).when({ id: 'team-3', name: 'BILLING' }).thenRefuses({ code: 'team_exists', status: 409 });
  });

  it('renaming a team appends the new name; a team may change the case of its own name', () => {
    rename
      .given({ team: billing, sameName: null })
      .when({ id: 'team-1', name: 'Invoices' })
      .then({ type: 'team.renamed', aggregate_type: 'team', aggregate_id: 'team-1', payload: { id: 'team-1', name: 'Invoices' } });
    rename
      .given({ team: billing, sameName: billing })
      .when({ id: 'team-1', name: 'BILLING' })
      .then({ type: 'team.renamed', aggregate_type: 'team', aggregate_id: 'team-1', payload: { id: 'team-1', name: 'BILLING' } });
  });
  it('renaming a team to the name it has appends nothing', () => {
    rename.given({ team: billing, sameName: billing }).when({ id: 'team-1', name: 'Billing' }).thenNothing();
  });
  it('renaming a team to a name another team holds is refused; a team not loaded is a 404', () => {
    rename.given({ team: billing, sameName: support }).when({ id: 'team-1', name: 'support' }).thenRefuses({ code: 'team_exists', status: 409 });
    rename.given({ team: null, sameName: null }).when({ id: 'team-9', name: 'x' }).thenRefuses({ code: 'not_found', status: 404 });
  });

  it('deleting a team is one event naming the conversations and channels it unassigns', () => {
    remove
      .given({ team: billing, conversationIds: ['c1', 'c2'], channelIds: ['ch1'] })
      .when({ id: 'team-1' })
      .then({
        type: 'team.deleted',
        aggregate_type: 'team',
        aggregate_id: 'team-1',
        payload: { id: 'team-1', name: 'Billing', conversation_ids: ['c1', 'c2'], channel_ids: ['ch1'] },
      });
  });
  it("deleting a team not loaded (none, already deleted, or another workspace's) is a 404", () => {
    remove.given({ team: null, conversationIds: [], channelIds: [] }).when({ id: 'team-9' }).thenRefuses({ code: 'not_found', status: 404 });
  });

  it('replacing a roster appends the new set with who was added and who removed', () => {
    rosters
      .given(workspace)
      .when({ entries: [{ teamId: 'team-1', memberIds: ['m2', 'm3'], path: '' }], single: true })
      .then({
        type: 'team.roster_changed',
        aggregate_type: 'team',
        aggregate_id: 'team-1',
        payload: { id: 'team-1', member_ids: ['m2', 'm3'], added: ['m3'], removed: ['m1'] },
      });
  });
  it('a move between teams replaces each named roster in one command; a roster re-sent unchanged appends nothing', () => {
    rosters
      .given(workspace)
      .when({
        entries: [
          { teamId: 'team-1', memberIds: ['m2'], path: 'teams.0.' },
          { teamId: 'team-2', memberIds: ['m1'], path: 'teams.1.' },
        ],
        single: false,
      })
      .then(
        {
          type: 'team.roster_changed',
          aggregate_type: 'team',
          aggregate_id: 'team-1',
          payload: { id: 'team-1', member_ids: ['m2'], added: [], removed: ['m1'] },
        },
        {
          type: 'team.roster_changed',
          aggregate_type: 'team',
          aggregate_id: 'team-2',
          payload: { id: 'team-2', member_ids: ['m1'], added: ['m1'], removed: [] },
        },
      );
    rosters
      .given(workspace)
      .when({ entries: [{ teamId: 'team-1', memberIds: ['m2', 'm1'], path: '' }], single: true })
      .thenNothing();
  });
  it('replacing the roster of a team not loaded is a 404', () => {
    rosters
      .given(workspace)
      .when({ entries: [{ teamId: 'team-9', memberIds: [], path: '' }], single: true })
      .thenRefuses({ code: 'not_found', status: 404 });
  });
  it('a roster naming someone not an active member, or a member twice, is refused on the field', () => {
    rosters
      .given(workspace)
      .when({ entries: [{ teamId: 'team-1', memberIds: ['m1', 'm9'], path: '' }], single: true })
      .thenRefuses({ code: 'unknown_member', status: 400, field: 'member_ids.1' });
    rosters
      .given(workspace)
      .when({ entries: [{ teamId: 'team-1', memberIds: ['m1', 'm1'], path: '' }], single: true })
      .thenRefuses({ code: 'duplicate_member', status: 400, field: 'member_ids.1' });
  });
  it('a move with any bad entry is refused whole, every problem named by its path (unknown or repeated team, unknown or repeated member)', () => {
    const refusal = rosters
      .given(workspace)
      .when({
        entries: [
          { teamId: 'team-1', memberIds: ['m1'], path: 'teams.0.' },
          { teamId: 'team-9', memberIds: ['m2'], path: 'teams.1.' },
          { teamId: 'team-1', memberIds: ['m3', 'm9', 'm3'], path: 'teams.2.' },
        ],
        single: false,
      })
      .thenRefuses({ code: 'unknown_team', status: 400, field: 'teams.1.team_id' });
    expect(refusal.entries().map(({ code, field }) => ({ code, field }))).to.deep.equal([
      { code: 'unknown_team', field: 'teams.1.team_id' },
      { code: 'duplicate_team', field: 'teams.2.team_id' },
      { code: 'unknown_member', field: 'teams.2.member_ids.1' },
      { code: 'duplicate_member', field: 'teams.2.member_ids.2' },
    ]);
  });
});
