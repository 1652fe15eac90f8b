// Routing as a specification: given a team's rule, its members' availability, capacity and load, and the member it
// last assigned to, when a conversation is started, posted or reopened unassigned, then the assignment part routing
// appends (or none); and the members' and teams' own routing settings.
import { expect } from 'chai';
import {
  decideInbound,
  decideManage,
  decideStart,
  type ConversationView,
  type InboundCommand,
  type InboundState,
  type StartCommand,
  type StartState,
} from '../../src/capabilities/conversations/conversations.decider.js';
import { pickAssignee, routingPartId, type RoutingCandidate, type TeamRouting } from '../../src/capabilities/conversations/routing.js';
import { decideSetAvailability, decideUpdateMember } from '../../src/capabilities/members/members.decider.js';
import { decideUpdateTeam } from '../../src/capabilities/teams/teams.decider.js';
import { decider } from '../support/decider-spec.js';
import { exactDecider } from '../support/decider-spec-exact.js';

const TEAM = '00000000-0000-4000-8000-00000000000a';
const [A, B, C] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
const online = (id: string, open = 0, capacity: number | null = null): RoutingCandidate => ({ id, online: true, capacity, open });
const away = (id: string, open = 0): RoutingCandidate => ({ id, online: false, capacity: null, open });
const team = (rule: TeamRouting['rule'], candidates: RoutingCandidate[], last: string | null = null): TeamRouting => ({ teamId: TEAM, rule, candidates, last });

const routedPart = (conversationId: string, partId: string, assignee: string, rule: TeamRouting['rule']) => ({
  type: 'conversation_part.created' as const,
  payload: {
    conversation_id: conversationId,
    part_id: routingPartId(partId),
    part_type: 'assignment' as const,
    author: { type: 'system' as const, id: 'routing' },
    body: null,
    assignee_id: assignee,
    assigned_by: { rule, team_id: TEAM },
  },
});

describe('routing (decider, unit)', () => {
  describe('who the rule picks', () => {
    it('round robin: the next available member after the last one, by member id, wrapping round', () => {
      const members = [online(C), online(A), online(B)];
      expect(pickAssignee(team('round_robin', members))).to.equal(A);
      expect(pickAssignee(team('round_robin', members, A))).to.equal(B);
      expect(pickAssignee(team('round_robin', members, B))).to.equal(C);
      expect(pickAssignee(team('round_robin', members, C))).to.equal(A);
      // The last one left the team since: the next id after theirs still.
      expect(pickAssignee(team('round_robin', [online(A), online(C)], B))).to.equal(C);
    });
    it('round robin ignores load, but not availability or capacity', () => {
      expect(pickAssignee(team('round_robin', [online(A, 9), online(B, 0)], null))).to.equal(A);
      expect(pickAssignee(team('round_robin', [away(A), online(B), online(C)], C))).to.equal(B);
      expect(pickAssignee(team('round_robin', [online(A, 2, 2), online(B, 1, 2)], null)), 'A is at capacity').to.equal(B);
      expect(pickAssignee(team('round_robin', [online(A, 0, 0), online(B, 5)], B)), 'capacity 0: never routed to').to.equal(B);
    });
    it('nobody online and under capacity: nobody', () => {
      expect(pickAssignee(team('round_robin', [away(A), online(B, 3, 3)]))).to.equal(null);
      expect(pickAssignee(team('balanced', []))).to.equal(null);
    });
    it('balanced: the least loaded available member; ties in round-robin order', () => {
      expect(pickAssignee(team('balanced', [online(A, 3), online(B, 1), online(C, 2)]))).to.equal(B);
      expect(pickAssignee(team('balanced', [online(A, 3), away(B, 0), online(C, 2)])), 'away is not available').to.equal(C);
      expect(pickAssignee(team('balanced', [online(A, 1), online(B, 1), online(C, 1)], A))).to.equal(B);
      expect(pickAssignee(team('balanced', [online(A, 1), online(B, 2), online(C, 1)], A)), 'B is not among the least loaded').to.equal(C);
      expect(pickAssignee(team('balanced', [online(A, 1), online(B, 1), online(C, 1)], C))).to.equal(A);
      expect(pickAssignee(team('balanced', [online(A, 0, 0), online(B, 4)])), 'A is at capacity (0)').to.equal(B);
    });
  });

  describe('a new conversation', () => {
    const start = decider((cmd: StartCommand, s: StartState) => decideStart(cmd, s));
    const cmd: StartCommand = {
      conversationId: 'c1',
      partId: 'p1',
      newContactId: 'k1',
      channelId: 'ch1',
      body: 'Hello',
      subject: null,
      assigneeId: null,
      author: { type: 'member', id: 'm0' },
      contactId: 'k1',
      contact: null,
    };
    const state = (routing: TeamRouting | null): StartState => ({
      channel: { defaultTeamId: TEAM },
      contact: { id: 'k1' } as StartState['contact'],
      assigneeActive: true,
      routing,
    });

    it("is assigned by its team's rule in the command that creates it, after its first part", () => {
      start
        .given(state(team('round_robin', [online(A), online(B)], A)))
        .when(cmd)
        .then(
          { type: 'conversation.created', payload: { assignee_id: null, team_id: TEAM } },
          { type: 'conversation_part.created', payload: { part_id: 'p1', part_type: 'comment' } },
          routedPart('c1', 'p1', B, 'round_robin'),
        );
    });
    it('is left alone when an assignee is named, when nobody is available, or when the team assigns nothing', () => {
      start
        .given(state(team('round_robin', [online(A)])))
        .when({ ...cmd, assigneeId: C })
        .then({ type: 'conversation.created', payload: { assignee_id: C } }, { type: 'conversation_part.created', payload: { part_type: 'comment' } });
      start
        .given(state(team('balanced', [away(A), online(B, 1, 1)])))
        .when(cmd)
        .then({ type: 'conversation.created', payload: { assignee_id: null } }, { type: 'conversation_part.created', payload: { part_type: 'comment' } });
      start
        .given(state(null))
        .when(cmd)
        .then({ type: 'conversation.created' }, { type: 'conversation_part.created', payload: { part_type: 'comment' } });
    });
    it("a bridge's first post of a thread is routed too", () => {
      const inbound = decider((c: InboundCommand, s: InboundState) => decideInbound(c, s));
      const post: InboundCommand = {
        channelId: 'ch1',
        defaultTeamId: TEAM,
        conversationId: 'c2',
        contactId: 'k2',
        partId: 'p2',
        externalId: 'thread-1',
        messageId: null,
        contact: { external_id: 'wa:1' },
        content: 'Hi',
        attachments: [],
        at: '2026-01-01T00:00:00.000Z',
      };
      inbound
        .given({ thread: null, messageFiled: false, contact: null, defaultTeamExists: true, routing: team('balanced', [online(A, 2), online(B, 1)]) })
        .when(post)
        .then(
          { type: 'contact.created' },
          { type: 'conversation.created', payload: { team_id: TEAM, assignee_id: null } },
          { type: 'conversation_part.created', payload: { part_type: 'message' } },
          routedPart('c2', 'p2', B, 'balanced'),
        );
    });
  });

  describe('a conversation moved to another team', () => {
    const OTHER = '00000000-0000-4000-8000-00000000000b';
    const open: ConversationView = { id: 'c5', channelId: 'ch1', state: 'open', assigneeId: null, teamId: OTHER, tagIds: [] };
    const manage = decider((c: Parameters<typeof decideManage>[0], s: { c: ConversationView; routing: TeamRouting | null }) =>
      decideManage(c, s.c, { assigneeActive: true, teamExists: true, routing: s.routing }),
    );
    const move = (over: { assigneeId?: string | null } = {}) => ({
      partId: 'p5',
      author: { type: 'member' as const, id: 'm0' },
      body: null,
      messageType: 'assignment' as const,
      assigneeId: undefined,
      teamId: TEAM,
      ...over,
    });

    it("open and nobody's: the new team's rule assigns it after the part that moves it", () => {
      manage
        .given({ c: open, routing: team('round_robin', [online(A), online(B)], A) })
        .when(move())
        .then({ type: 'conversation_part.created', payload: { part_type: 'assignment', team_id: TEAM } }, routedPart('c5', 'p5', B, 'round_robin'));
    });
    it('unassigned by the same part (assignee_id null): routed too', () => {
      manage
        .given({ c: { ...open, assigneeId: C }, routing: team('balanced', [online(A)]) })
        .when(move({ assigneeId: null }))
        .then({ type: 'conversation_part.created', payload: { assignee_id: null, team_id: TEAM } }, routedPart('c5', 'p5', A, 'balanced'));
    });
    it('moved with its assignee, closed, or unassigned within its own team: nothing routed', () => {
      const routing = team('round_robin', [online(A)]);
      manage
        .given({ c: { ...open, assigneeId: C }, routing })
        .when(move())
        .then({ type: 'conversation_part.created', payload: { team_id: TEAM } });
      manage
        .given({ c: { ...open, state: 'closed' }, routing })
        .when(move())
        .then({ type: 'conversation_part.created', payload: { team_id: TEAM } });
      manage
        .given({ c: { ...open, teamId: TEAM, assigneeId: C }, routing })
        .when({ ...move({ assigneeId: null }), teamId: undefined })
        .then({ type: 'conversation_part.created', payload: { assignee_id: null } });
    });
  });

  describe('a reopened conversation', () => {
    const closed: ConversationView = { id: 'c3', channelId: 'ch1', state: 'closed', assigneeId: null, teamId: TEAM, tagIds: [] };
    const manage = decider((c: Parameters<typeof decideManage>[0], s: { c: ConversationView; routing: TeamRouting | null }) =>
      decideManage(c, s.c, { assigneeActive: false, routing: s.routing }),
    );
    const reopen = { partId: 'p3', author: { type: 'member' as const, id: 'm0' }, body: null, messageType: 'open' as const };

    it("nobody's: routed after the part that reopens it", () => {
      manage
        .given({ c: closed, routing: team('round_robin', [online(A), online(B)], B) })
        .when(reopen)
        .then({ type: 'conversation_part.created', payload: { part_type: 'open', state: 'open' } }, routedPart('c3', 'p3', A, 'round_robin'));
    });
    it('assigned: keeps its assignee', () => {
      manage
        .given({ c: { ...closed, assigneeId: C }, routing: team('round_robin', [online(A)]) })
        .when(reopen)
        .then({ type: 'conversation_part.created', payload: { part_type: 'open' } });
    });
    it("by a bridge's new message in the thread", () => {
      const inbound = decider((c: InboundCommand, s: InboundState) => decideInbound(c, s));
      inbound
        .given({
          thread: { ...closed, state: 'snoozed' },
          messageFiled: false,
          contact: { id: 'k3' } as InboundState['contact'],
          routing: team('balanced', [online(A)]),
        })
        .when({
          channelId: 'ch1',
          defaultTeamId: null,
          conversationId: 'unused',
          contactId: 'k3',
          partId: 'p4',
          externalId: 'thread-3',
          messageId: 'm-2',
          contact: { external_id: 'wa:3' },
          content: 'Still there?',
          attachments: [],
          at: '2026-01-01T00:00:00.000Z',
        })
        .then({ type: 'conversation_part.created', payload: { part_type: 'message', state: 'open' } }, routedPart('c3', 'p4', A, 'balanced'));
    });
  });

  describe("members' and teams' settings", () => {
    it('a member sets their availability; the one they have changes nothing; a removed member is a 404', () => {
      const set = exactDecider(decideSetAvailability);
      set
        .given({ member: { status: 'active', availability: 'away' } })
        .when({ memberId: A, availability: 'online' })
        .then({ type: 'member.availability_changed', aggregate_type: 'member', aggregate_id: A, payload: { member_id: A, from: 'away', to: 'online' } });
      set
        .given({ member: { status: 'active', availability: 'online' } })
        .when({ memberId: A, availability: 'online' })
        .thenNothing();
      set
        .given({ member: { status: 'removed', availability: 'online' } })
        .when({ memberId: A, availability: 'away' })
        .thenRefuses({ code: 'not_found', status: 404 });
    });
    it("an owner or admin sets a member's capacity (null: no limit), with or beside a role change", () => {
      const update = exactDecider(decideUpdateMember);
      const s = {
        actor: { memberId: B, role: 'admin' as const },
        target: { id: A, role: 'agent' as const, status: 'active' as const },
        activeOwners: 1,
        capacity: null,
      };
      update
        .given(s)
        .when({ memberId: A, capacity: 4 })
        .then({ type: 'member.capacity_changed', aggregate_type: 'member', aggregate_id: A, payload: { member_id: A, from: null, to: 4, changed_by: B } });
      update
        .given({ ...s, capacity: 4 })
        .when({ memberId: A, capacity: 4 })
        .thenNothing();
      update
        .given({ ...s, capacity: 4 })
        .when({ memberId: A, role: 'admin', capacity: null })
        .then(
          { type: 'member.role_changed', aggregate_type: 'member', aggregate_id: A, payload: { member_id: A, from: 'agent', to: 'admin' } },
          { type: 'member.capacity_changed', aggregate_type: 'member', aggregate_id: A, payload: { member_id: A, from: 4, to: null, changed_by: B } },
        );
      // All or nothing: a role the actor may not grant refuses the capacity too.
      update.given(s).when({ memberId: A, role: 'owner', capacity: 2 }).thenRefuses({ code: 'owner_required', status: 403 });
    });
    it("a team's assignment rule changes with PUT /api/teams/{id}, alone or with a new name", () => {
      const update = exactDecider(decideUpdateTeam);
      const billing = { id: TEAM, name: 'Billing', memberIds: [A], assignment: 'none' as const };
      update
        .given({ team: billing, sameName: null })
        .when({ id: TEAM, assignment: 'round_robin' })
        .then({ type: 'team.assignment_changed', aggregate_type: 'team', aggregate_id: TEAM, payload: { id: TEAM, from: 'none', to: 'round_robin' } });
      update
        .given({ team: { ...billing, assignment: 'balanced' }, sameName: null })
        .when({ id: TEAM, assignment: 'balanced' })
        .thenNothing();
      update
        .given({ team: billing, sameName: null })
        .when({ id: TEAM, name: 'Invoices', assignment: 'balanced' })
        .then(
          { type: 'team.renamed', aggregate_type: 'team', aggregate_id: TEAM, payload: { id: TEAM, name: 'Invoices' } },
          { type: 'team.assignment_changed', aggregate_type: 'team', aggregate_id: TEAM, payload: { id: TEAM, from: 'none', to: 'balanced' } },
        );
      update.given({ team: null, sameName: null }).when({ id: TEAM, assignment: 'balanced' }).thenRefuses({ code: 'not_found', status: 404 });
    });
  });
});
