import { defineEvent, Instant, Nullable, payload, Personal, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

const Role = () => Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('agent'), Type.Literal('viewer')]);

export const MemberJoined = defineEvent({
  type: 'member.joined',
  aggregate_type: 'member',
  description: 'A person became a member: the owner founding the workspace, or an invitee accepting.',
  personal: { kind: 'member', id: 'member_id', fields: ['email', 'name'], fresh: true },
  payload: payload({ member_id: Uuid(), user_id: Uuid(), email: Personal(Text()), name: Personal(Text()), role: Role(), invite_id: Type.Optional(Uuid()) }),
});

export const MemberRoleChanged = defineEvent({
  type: 'member.role_changed',
  aggregate_type: 'member',
  description: "A member's role changed; their keys narrow or widen with it on the next request.",
  payload: payload({ member_id: Uuid(), from: Role(), to: Role() }),
});

export const MemberRemoved = defineEvent({
  type: 'member.removed',
  aggregate_type: 'member',
  description: 'A member was removed from the workspace; their keys and sessions stop working for it.',
  payload: payload({ member_id: Uuid(), removed_by: Uuid() }),
});

export const MemberInvited = defineEvent({
  type: 'member.invited',
  aggregate_type: 'invite',
  description: 'An invite was sent. The token is shown once to the inviter and never enters the log.',
  personal: { kind: 'invite', id: 'invite_id', fields: ['email'], fresh: true },
  payload: payload({ invite_id: Uuid(), email: Personal(Text()), role: Role(), invited_by: Uuid(), expires_at: Instant() }),
});

export const MemberErased = defineEvent({
  type: 'member.erased',
  aggregate_type: 'member',
  description:
    "An owner erased a removed member: the member's data key (and their invite's) was destroyed, so their name and e-mail read as null everywhere from now on. Ids only.",
  payload: payload({ member_id: Uuid(), invite_id: Nullable(Uuid()), erased_by: Uuid() }),
});

export const MemberInviteRevoked = defineEvent({
  type: 'member.invite_revoked',
  aggregate_type: 'invite',
  description:
    "A pending invite was revoked: by a member (`reason` `revoked`), or because its inviter was removed or demoted to a role that may no longer grant it (`inviter_removed`, `inviter_demoted`), in the same command. Its token stops working, and the invitee's e-mail is forgotten (the invite's data key is destroyed): `member.invited` reads `email: null` from now on. Ids only.",
  payload: payload({
    invite_id: Uuid(),
    revoked_by: Uuid(),
    reason: Type.Union([Type.Literal('revoked'), Type.Literal('inviter_removed'), Type.Literal('inviter_demoted')]),
  }),
});

/** Whether a member takes conversations from routing now (see docs/api-guide.md, Routing). */
export const AVAILABILITIES = ['online', 'away'] as const;
const Availability = () => Type.Union(AVAILABILITIES.map((a) => Type.Literal(a)));

export const MemberAvailabilityChanged = defineEvent({
  type: 'member.availability_changed',
  aggregate_type: 'member',
  description:
    "A member set their own availability (PUT /api/me/availability): `online` members take conversations from their teams' assignment rules, `away` members get none (what they have stays theirs). A member is `away` until they first set it.",
  payload: payload({ member_id: Uuid(), from: Availability(), to: Availability() }),
});

export const MemberCapacityChanged = defineEvent({
  type: 'member.capacity_changed',
  aggregate_type: 'member',
  description:
    "An owner or admin changed a member's capacity (PUT /api/members/{id}): the most open conversations assigned to them that routing gives them (`null`: no limit). Only routing heeds it; a teammate may still assign them more by hand.",
  payload: payload({ member_id: Uuid(), from: Nullable(Type.Integer({ minimum: 0 })), to: Nullable(Type.Integer({ minimum: 0 })), changed_by: Uuid() }),
});

export const memberEvents = [
  MemberJoined,
  MemberRoleChanged,
  MemberRemoved,
  MemberInvited,
  MemberErased,
  MemberInviteRevoked,
  MemberAvailabilityChanged,
  MemberCapacityChanged,
] as const;
export type MemberEvent = EventOf<(typeof memberEvents)[number]>;
