// Pure conversation rules. Every change to a conversation is a part (as in
// Intercom) and a `conversation_part.created` event whose payload carries the
// resulting state, so projections and webhook receivers never re-derive it.
import { BadRequest, Conflict, Forbidden, NotFound, Unprocessable } from '../../platform/errors.js';
import { taggingChanges, type TagView } from '../tags/index.js';
import { contactErased, decideFindOrFillContact, type ContactEvent, type ContactInput, type ContactView } from '../contacts/index.js';
import type { ConversationEvent, MentionEvent, PartPayload, PART_TYPES, AUTHOR_TYPES, PRIORITIES } from './conversations.events.js';
import { routedAssignment, type TeamRouting } from './routing.js';

export type ConversationState = 'open' | 'closed' | 'snoozed';
export type PartType = (typeof PART_TYPES)[number];
export type Priority = (typeof PRIORITIES)[number];
export interface Author {
  type: (typeof AUTHOR_TYPES)[number];
  id: string;
}
/** What a command appends: conversation events and the contact events of finding or filling the customer. */
export type StartEvents = (ConversationEvent | ContactEvent)[];

/** Keys of a part that carry the conversation's resulting state or the message's own details. */
type PartExtra = Partial<Pick<PartPayload, 'sent_at' | 'state' | 'snoozed_until' | 'assignee_id' | 'team_id' | 'priority' | 'merged_from'>>;

export interface ConversationView {
  id: string;
  channelId: string;
  state: ConversationState;
  assigneeId: string | null;
  teamId: string | null;
  tagIds: string[];
  /** merged into this conversation (conversation.merged): closed and read-only */
  mergedInto?: string | null;
  /** its contact (where a rule needs it: a merge stays within one contact's conversations) */
  contactId?: string;
}

/** A conversation a teammate's command may change: it exists, and was not merged into another (409 conversation_merged). */
export function writable(c: ConversationView | null): ConversationView {
  if (!c) throw new NotFound('conversation');
  if (c.mergedInto) throw new Conflict('conversation_merged', `The conversation was merged into ${c.mergedInto}, and is read-only: write to that one.`);
  return c;
}

export interface Attachment {
  url: string;
  /** an uploaded file's id (uploads), whose bytes this service keeps */
  upload_id?: string;
  name?: string;
  content_type?: string;
  size?: number;
}

interface PartInput {
  conversationId: string;
  channelId: string;
  partId: string;
  partType: PartType;
  author: Author;
  body?: string | null;
  externalId?: string | null;
  attachments?: Attachment[];
  /** the uploads among the attachments (part-files.ts): ids, in the clear, so their read model follows the part */
  uploadIds?: readonly string[];
  extra?: PartExtra;
}

/** What attaching a file appends beside the part (the uploads capability's event, declared in its catalogue). */
export interface FileAttached {
  type: 'upload.attached';
  aggregate_type: 'upload';
  aggregate_id: string;
  payload: { upload_id: string; conversation_id: string; part_id: string };
}

/** A part's files as decided: its attachments, and the events that say they are the part's. */
export interface AttachedFiles {
  attachments: Attachment[];
  events: FileAttached[];
}

const NO_FILES: AttachedFiles = { attachments: [], events: [] };

export function partEvent(p: PartInput): ConversationEvent {
  return {
    type: 'conversation_part.created',
    aggregate_type: 'conversation',
    aggregate_id: p.conversationId,
    payload: {
      conversation_id: p.conversationId,
      part_id: p.partId,
      part_type: p.partType,
      channel_id: p.channelId,
      author: p.author,
      body: p.body ?? null,
      ...(p.externalId ? { external_id: p.externalId } : {}),
      ...(p.attachments?.length ? { attachments: p.attachments } : {}),
      ...(p.uploadIds?.length ? { upload_ids: [...p.uploadIds] } : {}),
      ...p.extra,
    },
  };
}

function conversationCreated(c: {
  id: string;
  channelId: string;
  contactId: string;
  externalId: string | null;
  subject: string | null;
  assigneeId: string | null;
  teamId: string | null;
  source: 'inbound' | 'teammate';
  priority: Priority;
}): ConversationEvent {
  return {
    type: 'conversation.created',
    aggregate_type: 'conversation',
    aggregate_id: c.id,
    payload: {
      conversation_id: c.id,
      channel_id: c.channelId,
      contact_id: c.contactId,
      external_id: c.externalId,
      subject: c.subject,
      state: 'open',
      assignee_id: c.assigneeId,
      team_id: c.teamId,
      source: c.source,
      priority: c.priority,
    },
  };
}

// ---- inbound (signed channel posts) ----

export interface InboundCommand {
  channelId: string;
  defaultTeamId: string | null;
  conversationId: string;
  contactId: string;
  partId: string;
  externalId: string;
  /** the thread's keyed hash (conversations.read.ts threadKey), to find its tombstone; null where channels cannot seal */
  threadKey?: string | null;
  messageId: string | null;
  contact: ContactInput;
  content: string;
  attachments: Attachment[];
  at: string;
}

export interface InboundState {
  thread: ConversationView | null;
  /** the thread was erased with its contact (its tombstone): never filed again */
  erased?: boolean;
  messageFiled: boolean;
  contact: ContactView | null;
  /** whether the channel's default team (read before the transaction) still exists; absent: assume it does */
  defaultTeamExists?: boolean;
  /** the assignment rule of the team a new or reopened unassigned conversation lands in (routing.ts); null: none */
  routing?: TeamRouting | null;
}

// ---- a customer's message on any channel ----

/**
 * A customer's message, as any channel's adapter hands it over once it has found (or not) the thread it belongs to
 * and decided the contact: the bridge's inbound post and an e-mail differ only in how they parse and address.
 */
export interface ChannelMessage {
  channelId: string;
  defaultTeamId: string | null;
  /** the id of the conversation a message outside any thread opens */
  conversationId: string;
  partId: string;
  /** the contact the message is filed under, and the events of finding or filling it */
  contact: { contactId: string; events: ContactEvent[] };
  /** the conversation it threads into; null: it opens one */
  thread: { id: string; state: ConversationState; assigneeId: string | null; teamId: string | null } | null;
  /** a new conversation's thread id (the bridge's external_id) and subject */
  externalId: string | null;
  subject: string | null;
  body: string;
  /** the message's own id in its thread (the bridge's message_id) */
  messageExternalId: string | null;
  attachments: Attachment[];
  sent_at: string;
  /** false for a message sent by a machine (an auto-reply, a bounce): it never reopens what the team closed */
  mayReopen: boolean;
  /** whether the channel's default team still exists (read before the transaction); false: the conversation has none */
  defaultTeamExists: boolean;
  /** the assignment rule of the team a new or reopened unassigned conversation lands in (routing.ts); null: none */
  routing: TeamRouting | null;
}

/**
 * The rules every channel's message follows, in one place: it opens a conversation in the channel's default team
 * when it belongs to no thread, or is added to its thread, reopening it (and ending its snooze) unless it came from
 * a machine; a new conversation, or a reopened one nobody has, is assigned by its team's rule. `message` holds the
 * message's own events, `routed` the assignment, which follows whatever the channel adds about the message.
 */
export function fileChannelMessage(m: ChannelMessage): { message: StartEvents; routed: ConversationEvent[] } {
  const author: Author = { type: 'contact', id: m.contact.contactId };
  const thread = m.thread;
  const conversationId = thread?.id ?? m.conversationId;
  const reopen = thread !== null && thread.state !== 'open' && m.mayReopen;
  const teamId = thread ? thread.teamId : m.defaultTeamExists ? m.defaultTeamId : null;
  const message: StartEvents = [
    ...m.contact.events,
    ...(thread
      ? []
      : [
          conversationCreated({
            id: conversationId,
            channelId: m.channelId,
            contactId: m.contact.contactId,
            externalId: m.externalId,
            subject: m.subject,
            assigneeId: null,
            teamId,
            source: 'inbound',
            priority: 'normal',
          }),
        ]),
    partEvent({
      conversationId,
      channelId: m.channelId,
      partId: m.partId,
      partType: 'message',
      author,
      body: m.body,
      externalId: m.messageExternalId,
      attachments: m.attachments,
      extra: { sent_at: m.sent_at, ...(reopen ? { state: 'open', snoozed_until: null } : {}) },
    }),
  ];
  const routed =
    !thread || (reopen && thread.assigneeId === null) ? routedAssignment({ conversationId, channelId: m.channelId, teamId, partId: m.partId }, m.routing) : [];
  return { message, routed };
}

/**
 * The bridge's post. The first post of a thread opens a conversation. A later
 * post of the same thread files nothing (spec: 202) unless it carries a
 * `message_id` not seen in that thread, which adds the message as a part (and
 * reopens the conversation). A thread erased with its contact is never opened
 * again (its tombstone).
 */
export function decideInbound(cmd: InboundCommand, s: InboundState): StartEvents {
  if (s.thread && (cmd.messageId === null || s.messageFiled)) return [];
  if (!s.thread && s.erased) return [];
  const filed = fileChannelMessage({
    channelId: cmd.channelId,
    defaultTeamId: cmd.defaultTeamId,
    conversationId: cmd.conversationId,
    partId: cmd.partId,
    contact: decideFindOrFillContact(cmd.contactId, cmd.contact, s.contact, cmd.channelId),
    thread: s.thread,
    externalId: cmd.externalId,
    subject: null,
    body: cmd.content,
    messageExternalId: cmd.messageId,
    attachments: cmd.attachments,
    sent_at: cmd.at,
    mayReopen: true,
    defaultTeamExists: s.defaultTeamExists !== false,
    routing: s.routing ?? null,
  });
  return [...filed.message, ...filed.routed];
}

// ---- teammate-started conversations ----

export interface StartCommand {
  conversationId: string;
  partId: string;
  newContactId: string;
  channelId: string;
  body: string;
  subject: string | null;
  assigneeId: string | null;
  /** absent: normal */
  priority?: Priority;
  author: Author;
  contactId: string | null;
  contact: ContactInput | null;
  /** uploaded files the opening message carries (`upload_ids`), and their attachments once the command's state is known */
  uploadIds?: readonly string[];
  files?: () => AttachedFiles;
  /**
   * The id is derived from what the conversation is for (an outbound recipient's), not minted: a start on an id
   * that exists is refused (409 conversation_exists), so a retry can never start a second one. (A route's minted
   * id repeats only on a retried Idempotency-Key, which the shell answers from the log instead.)
   */
  refuseExisting?: boolean;
}

export interface StartState {
  /** a conversation with cmd.conversationId exists already (looked up when cmd.refuseExisting): refused */
  existing?: boolean;
  channel: { defaultTeamId: string | null } | null;
  contact: ContactView | null;
  assigneeActive: boolean;
  /** the assignment rule of the channel's default team, loaded when no assignee is named (routing.ts); null: none */
  routing?: TeamRouting | null;
}

export function decideStart(cmd: StartCommand, s: StartState): (StartEvents[number] | FileAttached)[] {
  if (cmd.refuseExisting && s.existing) throw new Conflict('conversation_exists', `A conversation with id ${cmd.conversationId} exists already.`);
  if (!s.channel) throw new BadRequest('unknown_channel', 'channel_id names no channel of this workspace.', 'channel_id');
  if (cmd.contactId && !s.contact) throw new BadRequest('unknown_contact', 'contact_id names no contact of this workspace.', 'contact_id');
  if (cmd.contactId && s.contact?.erased) throw contactErased(cmd.contactId);
  if (cmd.assigneeId && !s.assigneeActive) throw new BadRequest('unknown_member', 'assignee_id names no active member of this workspace.', 'assignee_id');
  const files = cmd.files?.() ?? NO_FILES;
  // The contact as found: a merged contact's survivor (findContact follows merges), where its conversations went.
  const contact = cmd.contactId
    ? { contactId: s.contact!.id, events: [] }
    : decideFindOrFillContact(cmd.newContactId, cmd.contact ?? {}, s.contact, cmd.channelId);
  return [
    ...contact.events,
    conversationCreated({
      id: cmd.conversationId,
      channelId: cmd.channelId,
      contactId: contact.contactId,
      externalId: null,
      subject: cmd.subject,
      assigneeId: cmd.assigneeId,
      teamId: s.channel.defaultTeamId,
      source: 'teammate',
      priority: cmd.priority ?? 'normal',
    }),
    // The opening message of a teammate is a customer-visible reply.
    partEvent({
      conversationId: cmd.conversationId,
      channelId: cmd.channelId,
      partId: cmd.partId,
      partType: 'comment',
      author: cmd.author,
      body: cmd.body,
      attachments: files.attachments,
      uploadIds: cmd.uploadIds,
    }),
    ...files.events,
    // Nobody named: the team's rule assigns it, in the same command.
    ...(cmd.assigneeId
      ? []
      : routedAssignment({ conversationId: cmd.conversationId, channelId: cmd.channelId, teamId: s.channel.defaultTeamId, partId: cmd.partId }, s.routing)),
  ];
}

// ---- replies and management ----

/**
 * A reply (a comment, sent to the channel) or a note. A note may mention teammates: each must be an active member
 * of the workspace, and each gets a conversation.mentioned right after the part. A comment mentions no one (its
 * text goes to the customer).
 */
export function decideReply(
  cmd: {
    partId: string;
    messageType: 'comment' | 'note';
    body: string;
    attachments: Attachment[];
    author: Author;
    mentions?: readonly string[];
    /** uploaded files (`upload_ids`), and their attachments once the command's state is known (part-files.ts) */
    uploadIds?: readonly string[];
    files?: () => AttachedFiles;
  },
  s: { conversation: ConversationView | null; activeMentioned?: ReadonlySet<string> },
): (ConversationEvent | MentionEvent | FileAttached)[] {
  const c = writable(s.conversation);
  const mentions = cmd.mentions ?? [];
  if (mentions.length > 0 && cmd.messageType !== 'note')
    throw new BadRequest('mentions_on_notes_only', 'Only a note mentions teammates: send `mentions` with `message_type` note.', 'mentions');
  const unknown = mentions.findIndex((m) => !s.activeMentioned?.has(m));
  if (unknown >= 0) throw new BadRequest('unknown_member', `mentions[${unknown}] names no active member of this workspace.`, `mentions[${unknown}]`);
  const files = cmd.files?.() ?? NO_FILES;
  const part = partEvent({
    conversationId: c.id,
    channelId: c.channelId,
    partId: cmd.partId,
    partType: cmd.messageType,
    author: cmd.author,
    body: cmd.body,
    attachments: [...cmd.attachments, ...files.attachments],
    uploadIds: cmd.uploadIds,
  });
  return [
    part,
    ...files.events,
    ...mentions.map((memberId): MentionEvent => ({
      type: 'conversation.mentioned',
      aggregate_type: 'conversation',
      aggregate_id: c.id,
      payload: { conversation_id: c.id, part_id: cmd.partId, member_id: memberId, mentioned_by: cmd.author },
    })),
  ];
}

export type ManageCommand =
  | { partId: string; author: Author; body: string | null; messageType: 'close' }
  | { partId: string; author: Author; body: string | null; messageType: 'open' }
  | { partId: string; author: Author; body: string | null; messageType: 'snoozed'; snoozedUntil: string; now: Date }
  | {
      partId: string;
      author: Author;
      body: string | null;
      messageType: 'assignment';
      assigneeId: string | null | undefined;
      teamId: string | null | undefined;
    }
  | { partId: string; author: Author; body: string | null; messageType: 'priority'; priority: Priority | undefined };

/**
 * Whether an assignment moves an open conversation, unassigned after it, to another team: then the new team's
 * rule routes it. Unassigning within the same team routes nothing: whoever unassigns means "nobody for now".
 */
export function movedToRoute(
  cmd: { messageType: string; assigneeId?: string | null; teamId?: string | null },
  c: Pick<ConversationView, 'state' | 'assigneeId' | 'teamId'>,
): boolean {
  if (cmd.messageType !== 'assignment' || !cmd.teamId || cmd.teamId === c.teamId || c.state !== 'open') return false;
  return (cmd.assigneeId === undefined ? c.assigneeId : cmd.assigneeId) === null;
}

export function decideManage(
  cmd: ManageCommand,
  c: ConversationView | null,
  s: { assigneeActive: boolean; teamExists?: boolean; routing?: TeamRouting | null },
): ConversationEvent[] {
  if (!c) throw new NotFound('conversation');
  writable(c);
  const part = (extra: PartExtra) =>
    partEvent({ conversationId: c.id, channelId: c.channelId, partId: cmd.partId, partType: cmd.messageType, author: cmd.author, body: cmd.body, extra });
  switch (cmd.messageType) {
    case 'close':
      if (c.state === 'closed') throw new Conflict('conversation_already_closed', 'The conversation is already closed.');
      return [part({ state: 'closed', snoozed_until: null })];
    case 'open':
      if (c.state === 'open') throw new Conflict('conversation_already_open', 'The conversation is already open.');
      return [
        part({ state: 'open', snoozed_until: null }),
        // Reopened and nobody's: its team's rule assigns it, in the same command.
        ...(c.assigneeId === null ? routedAssignment({ conversationId: c.id, channelId: c.channelId, teamId: c.teamId, partId: cmd.partId }, s.routing) : []),
      ];
    case 'snoozed':
      if (Date.parse(cmd.snoozedUntil) <= cmd.now.getTime()) throw new BadRequest('snooze_in_past', 'snoozed_until must be in the future.', 'snoozed_until');
      return [part({ state: 'snoozed', snoozed_until: new Date(cmd.snoozedUntil).toISOString() })];
    case 'assignment':
      return decideAssignment(cmd, c, s, part);
    // Setting the priority it has is still a part (as a repeated assignment is): the history shows who confirmed it.
    case 'priority':
      if (cmd.priority === undefined) throw new BadRequest('missing_field', 'A priority part names its priority: low, normal, high or urgent.', 'priority');
      return [part({ priority: cmd.priority })];
    default: {
      const never: never = cmd;
      throw new Error(`unhandled part type ${JSON.stringify(never)}`);
    }
  }
}

/** An assignment part: to a member, a team or both (null unassigns), and the team's rule's own when that applies. */
function decideAssignment(
  cmd: Extract<ManageCommand, { messageType: 'assignment' }>,
  c: ConversationView,
  s: { assigneeActive: boolean; teamExists?: boolean; routing?: TeamRouting | null },
  part: (extra: PartExtra) => ConversationEvent,
): ConversationEvent[] {
  if (cmd.assigneeId === undefined && cmd.teamId === undefined) {
    throw new BadRequest('missing_field', 'An assignment names assignee_id, team_id or both (null unassigns).', 'assignee_id');
  }
  if (cmd.assigneeId && !s.assigneeActive) throw new BadRequest('unknown_member', 'assignee_id names no active member of this workspace.', 'assignee_id');
  if (cmd.teamId && !s.teamExists) throw new BadRequest('unknown_team', 'team_id names no team of this workspace.', 'team_id');
  const extra: PartExtra = {};
  if (cmd.assigneeId !== undefined) extra.assignee_id = cmd.assigneeId;
  if (cmd.teamId !== undefined) extra.team_id = cmd.teamId;
  return [
    part(extra),
    // Moved, open and nobody's, to another team: that team's rule assigns it, in the same command (as a new
    // conversation landing in the team would be). Closed or snoozed, it is routed when it reopens.
    ...(movedToRoute(cmd, c) ? routedAssignment({ conversationId: c.id, channelId: c.channelId, teamId: cmd.teamId!, partId: cmd.partId }, s.routing) : []),
  ];
}

/** A part as redact and unsend decide on it. */
export interface PartView {
  id: string;
  conversationId: string;
  channelId: string;
  partType: PartType;
  author: Author;
  /** the member who wrote it: the member author, or the member whose API key wrote it */
  authorMemberId: string | null;
  externalId: string | null;
  createdAt: Date;
  redacted: 'redacted' | 'unsent' | 'erased' | null;
}

/**
 * Redact: any part, a customer's message included. A part whose content is
 * already gone (redacted, unsent, erased) decides nothing: the route answers
 * 200 with its current state (at Intercom a second redact is a 400, which its
 * users complain about when a retry or two moderators race).
 */
export function decideRedact(cmd: { conversationId: string; partId: string; by: Author }, part: PartView | null): ConversationEvent[] {
  if (!part || part.conversationId !== cmd.conversationId) throw new NotFound('conversation part');
  if (part.redacted) return [];
  return [
    {
      type: 'conversation_part.redacted',
      aggregate_type: 'conversation',
      aggregate_id: part.conversationId,
      payload: { conversation_id: part.conversationId, part_id: part.id, redacted_by: cmd.by },
    },
  ];
}

/**
 * Unsend: the member who wrote a comment (themselves or through one of their
 * keys) retracts it within the window. Only comments: they are what reached
 * the customer through the channel, and the bridge gets the unsend to retract
 * it there. A repeat decides nothing.
 */
export function decideUnsend(
  cmd: { conversationId: string; partId: string; actorMemberId: string | undefined; now: Date; windowSeconds: number },
  part: PartView | null,
): ConversationEvent[] {
  if (!part || part.conversationId !== cmd.conversationId) throw new NotFound('conversation part');
  if (part.redacted === 'unsent') return [];
  if (part.partType !== 'comment') throw new Conflict('part_not_unsendable', `Only a teammate's comment can be unsent; this part is a ${part.partType}.`);
  if (!cmd.actorMemberId || part.authorMemberId !== cmd.actorMemberId)
    throw new Forbidden('not_author', 'Only the member who wrote a comment (or one of their API keys) can unsend it.');
  if (part.redacted) throw new Conflict('part_redacted', 'The part was already redacted; there is nothing left to unsend.');
  if (cmd.now.getTime() - part.createdAt.getTime() > cmd.windowSeconds * 1000) {
    throw new Conflict('unsend_window_passed', `A comment can be unsent within ${cmd.windowSeconds} seconds of sending; redact it instead.`);
  }
  return [
    {
      type: 'conversation_part.unsent',
      aggregate_type: 'conversation',
      aggregate_id: part.conversationId,
      payload: { conversation_id: part.conversationId, part_id: part.id, channel_id: part.channelId, external_id: part.externalId },
    },
  ];
}

/** Tags a conversation or takes a tag off: an idempotent delta (see taggingChanges). */
export function decideTagConversation(
  cmd: { conversationId: string; tagId: string; add: boolean },
  s: { conversation: ConversationView | null; tag: TagView | null },
): ConversationEvent[] {
  const c = writable(s.conversation);
  if (!taggingChanges(c.tagIds, cmd.tagId, s.tag, cmd.add)) return [];
  return [
    {
      type: cmd.add ? 'conversation.tagged' : 'conversation.untagged',
      aggregate_type: 'conversation',
      aggregate_id: c.id,
      payload: { conversation_id: c.id, tag_id: cmd.tagId, name: s.tag!.name },
    },
  ];
}

// ---- merging ----

/**
 * Merges a conversation into another of the same channel: the source is closed (a close part, unless it is closed
 * already) and marked merged, read-only from then on; the target gets a `merged` part naming it. Neither moves any
 * part: the source's history stays its own, and the target's names where it came from. A source merged already,
 * or a target merged already (merge into the one it went to), or another channel's, is refused.
 */
export function decideMerge(
  cmd: { sourceId: string; targetId: string; closePartId: string; mergedPartId: string; author: Author },
  s: { source: ConversationView | null; target: ConversationView | null },
): ConversationEvent[] {
  const source = writable(s.source);
  if (cmd.targetId.toLowerCase() === source.id) throw new BadRequest('invalid_field', 'A conversation cannot be merged into itself.', 'into');
  const target = s.target;
  if (!target) throw new BadRequest('unknown_conversation', 'into names no conversation of this workspace.', 'into');
  if (target.mergedInto) throw new Unprocessable('merge_target_merged', `into was itself merged into ${target.mergedInto}: merge into that one.`, 'into');
  if (target.channelId !== source.channelId)
    throw new Unprocessable('merge_across_channels', 'into is on another channel: only conversations of one channel merge (its replies go out on it).', 'into');
  if (source.contactId !== undefined && target.contactId !== source.contactId)
    throw new Unprocessable(
      'merge_across_contacts',
      "into is another contact's conversation: their later messages would land in it, and out of reach of their erasure. Merge the contacts first.",
      'into',
    );
  return [
    ...(source.state === 'closed'
      ? []
      : [
          partEvent({
            conversationId: source.id,
            channelId: source.channelId,
            partId: cmd.closePartId,
            partType: 'close',
            author: cmd.author,
            body: null,
            extra: { state: 'closed', snoozed_until: null },
          }),
        ]),
    {
      type: 'conversation.merged',
      aggregate_type: 'conversation',
      aggregate_id: source.id,
      payload: { conversation_id: source.id, into: target.id, merged_by: cmd.author },
    },
    partEvent({
      conversationId: target.id,
      channelId: target.channelId,
      partId: cmd.mergedPartId,
      partType: 'merged',
      author: cmd.author,
      body: null,
      extra: { merged_from: source.id },
    }),
  ];
}
