// Conversation commands, built from plain inputs. Routes, the signed inbound
// route and the unsnooze worker run these same specs through the shell.
import type { CommandSpec, Db } from '../../commands/command.js';
import { channelFacts } from '../channels/index.js';
import { contactKeys, findContact, type ContactInput } from '../contacts/index.js';
import { activeMemberIdsAmong, memberIsActive } from '../members/index.js';
import { teamExists } from '../teams/index.js';
import { findTag, tagView, type TagView } from '../tags/index.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import {
  decideInbound,
  decideRedact,
  decideUnsend,
  decideTagConversation,
  type PartView,
  decideManage,
  decideMerge,
  decideReply,
  decideStart,
  movedToRoute,
  type Attachment,
  type Author,
  type ConversationView,
  type InboundCommand,
  type InboundState,
  type ManageCommand,
  type StartCommand,
  type StartEvents,
  type StartState,
} from './conversations.decider.js';
import type { ConversationEvent, MentionEvent } from './conversations.events.js';
import { conversationView, findConversation, findThread, liveConversation, messageFiled, partView, threadErased } from './conversations.read.js';
import { loadRouting } from './routing.read.js';
import type { TeamRouting } from './routing.js';
import { BadRequest } from '../../platform/errors.js';
import type { AttachedFiles, FileAttached, PartFile, PartFiles } from './part-files.js';

/**
 * What a command that adds a part needs of its uploaded files (`upload_ids`, part-files.ts): the files loaded in
 * its transaction, their attachments decided from them, and their claim beside its events. None when it names none.
 */
function filesOf(ids: readonly string[] | undefined, files: PartFiles | null) {
  // Ids as stored (lower case), once each: an upload's key and rows are found by them.
  const named = [...new Set((ids ?? []).map((id) => id.toLowerCase()))];
  return {
    ids: named,
    load: (db: Db, tenantId: string, now: Date): Promise<PartFile[]> =>
      named.length === 0 ? Promise.resolve([]) : files ? files.load(db, tenantId, named, now) : Promise.resolve([]),
    attach: (loaded: readonly PartFile[], part: { conversationId: string; partId: string }) => (): AttachedFiles => {
      if (named.length === 0) return { attachments: [], events: [] };
      if (!files) throw new BadRequest('unknown_upload', 'upload_ids[0] names no upload of this workspace.', 'upload_ids[0]');
      return files.attach(named, loaded, part);
    },
    /** a `beside` when there are files to claim: a command without any keeps none (and may be loaded beside others) */
    beside: (part: { conversationId: string; partId: string }) =>
      named.length && files
        ? {
            beside: async (db: Db, events: readonly unknown[], ctx: { tenantId: string }) => {
              if (events.length) await files.claim(db, ctx.tenantId, named, part);
            },
          }
        : {},
  };
}

export const startConversation = (
  cmd: StartCommand,
  partFiles: PartFiles | null = null,
): CommandSpec<StartState & { files?: PartFile[] }, StartEvents[number] | FileAttached> => {
  const files = filesOf(cmd.uploadIds, partFiles);
  return {
    name: 'StartConversation',
    load: async (db, ctx) => {
      const facts = await channelFacts(db, ctx.tenantId, cmd.channelId);
      // The facts keep the default team the channel was created with: a team deleted since is none.
      const channel = facts?.defaultTeamId && !(await teamExists(db, ctx.tenantId, facts.defaultTeamId)) ? { defaultTeamId: null } : facts;
      return {
        existing: cmd.refuseExisting ? (await findConversation(db, ctx.tenantId, cmd.conversationId)) !== undefined : false,
        channel,
        contact: cmd.contactId
          ? await findContact(db, ctx.tenantId, { id: cmd.contactId })
          : await findContact(db, ctx.tenantId, cmd.contact ?? ({} as ContactInput)),
        assigneeActive: await memberIsActive(db, ctx.tenantId, cmd.assigneeId),
        routing: cmd.assigneeId ? null : await loadRouting(db, ctx.tenantId, channel?.defaultTeamId),
        files: await files.load(db, ctx.tenantId, ctx.now),
      };
    },
    decide: (s) =>
      decideStart({ ...cmd, uploadIds: files.ids, files: files.attach(s.files ?? [], { conversationId: cmd.conversationId, partId: cmd.partId }) }, s),
    ...files.beside({ conversationId: cmd.conversationId, partId: cmd.partId }),
    // Channel, team and member facts are never written by a keyed command. A routed start read what keyed
    // commands write (open conversations per assignee): it names no keys, so it is loaded after every earlier write.
    keys: (s) =>
      routed(s.routing)
        ? null
        : withKeys([`conversation:${cmd.conversationId}`], contactKeys(cmd.contactId ? { id: cmd.contactId } : (cmd.contact ?? {}), s.contact)),
  };
};

/**
 * Whether a command loaded a team's routing: its decision read every open conversation's assignee, which keyed
 * commands write under keys it cannot name, so it names none (null: loaded after every earlier write of a group
 * commit, and the last of its keyed run). Two routed commands of a group then never decide on the same state.
 */
const routed = (routing: TeamRouting | null | undefined): boolean => routing !== null && routing !== undefined;

export const replyToConversation = (
  cmd: {
    conversationId: string;
    partId: string;
    messageType: 'comment' | 'note';
    body: string;
    attachments: Attachment[];
    author: Author;
    /** a note's mentioned members */
    mentions?: readonly string[];
    /** uploaded files it carries (part-files.ts) */
    uploadIds?: readonly string[];
  },
  partFiles: PartFiles | null = null,
): CommandSpec<
  { conversation: ConversationView | null; activeMentioned?: ReadonlySet<string>; files?: PartFile[] },
  ConversationEvent | MentionEvent | FileAttached
> => {
  const files = filesOf(cmd.uploadIds, partFiles);
  return {
    name: 'ReplyToConversation',
    load: async (db, ctx) => ({
      conversation: conversationView(await findConversation(db, ctx.tenantId, cmd.conversationId)),
      // Only when there are mentions: a reply without them reads what it read before. (Members are written by
      // commands that declare no keys, which never share a keyed run: the key below still covers the read.)
      ...(cmd.mentions?.length ? { activeMentioned: await activeMemberIdsAmong(db, ctx.tenantId, cmd.mentions) } : {}),
      ...(cmd.uploadIds?.length ? { files: await files.load(db, ctx.tenantId, ctx.now) } : {}),
    }),
    decide: (s) =>
      decideReply({ ...cmd, uploadIds: files.ids, files: files.attach(s.files ?? [], { conversationId: cmd.conversationId, partId: cmd.partId }) }, s),
    ...files.beside({ conversationId: cmd.conversationId, partId: cmd.partId }),
    keys: () => [`conversation:${cmd.conversationId}`],
  };
};

export const manageConversation = (
  conversationId: string,
  cmd: ManageCommand & { assigneeId?: string | null; teamId?: string | null },
): CommandSpec<{ conversation: ConversationView | null; assigneeActive: boolean; teamExists: boolean; routing: TeamRouting | null }, ConversationEvent> => ({
  name: 'ManageConversation',
  load: async (db, ctx) => {
    const conversation = conversationView(await findConversation(db, ctx.tenantId, conversationId));
    return {
      conversation,
      assigneeActive: await memberIsActive(db, ctx.tenantId, cmd.assigneeId),
      teamExists: await teamExists(db, ctx.tenantId, cmd.teamId),
      routing:
        cmd.messageType === 'open'
          ? await reopenRouting(db, ctx.tenantId, conversation)
          : conversation && movedToRoute(cmd, conversation)
            ? await loadRouting(db, ctx.tenantId, cmd.teamId)
            : null,
    };
  },
  decide: (s) => decideManage(cmd, s.conversation, s),
  // Loaded beside a group's other keyed commands (close, assign and snooze are as hot as replies): member and team facts are never written by a keyed command.
  // A routed reopening names none (see routed).
  keys: (s) => (routed(s.routing) ? null : [`conversation:${conversationId}`]),
});

/** The routing of a conversation about to be reopened: loaded only when it is not open, nobody's, and its team has a rule. */
const reopenRouting = async (db: Db, tenantId: string, c: ConversationView | null): Promise<TeamRouting | null> =>
  c && c.state !== 'open' && c.assigneeId === null && c.teamId ? loadRouting(db, tenantId, c.teamId) : null;

/** Reopens a snoozed conversation whose time has come; decided on current state, so one reopened or snoozed longer meanwhile is left alone. */
export const unsnooze = (
  conversationId: string,
  partId: string,
  now: Date,
): CommandSpec<{ conversation: ConversationView | null; routing: TeamRouting | null }, ConversationEvent> => ({
  name: 'Unsnooze',
  load: async (db, ctx) => {
    const row = await findConversation(db, ctx.tenantId, conversationId);
    const due = row && row.state === 'snoozed' && row.snoozed_until && row.snoozed_until.getTime() <= now.getTime() ? conversationView(row) : null;
    return { conversation: due, routing: await reopenRouting(db, ctx.tenantId, due) };
  },
  decide: ({ conversation: c, routing }) =>
    c ? decideManage({ partId, author: { type: 'system', id: 'unsnooze' }, body: null, messageType: 'open' }, c, { assigneeActive: false, routing }) : [],
});

/** A bridge's signed post: opens a conversation for a new thread, or adds a new message to a known one. */
export const inboundMessage = (cmd: InboundCommand): CommandSpec<InboundState, StartEvents[number]> => ({
  name: 'InboundMessage',
  load: async (db, ctx) => {
    // A thread whose conversation was merged files its messages in the one it was merged into.
    const found = await findThread(db, ctx.tenantId, cmd.channelId, cmd.externalId);
    const thread = conversationView(await liveConversation(db, ctx.tenantId, found));
    // No thread: it may have been erased with its contact (its id is gone, its keyed hash stays).
    const erased = !thread && !!cmd.threadKey && (await threadErased(db, ctx.tenantId, cmd.threadKey));
    if (erased) return { thread, erased, messageFiled: false, contact: null, defaultTeamExists: false, routing: null };
    // A retried post of a message filed before the merge is found where it was filed.
    const filed =
      !!thread &&
      !!cmd.messageId &&
      ((await messageFiled(db, ctx.tenantId, thread.id, cmd.messageId)) ||
        (!!found && found.id !== thread.id && (await messageFiled(db, ctx.tenantId, found.id, cmd.messageId))));
    // The route read the channel before this transaction: its default team may have been deleted since.
    const defaultTeamExists = await teamExists(db, ctx.tenantId, cmd.defaultTeamId);
    // A new thread lands in the channel's default team; a known one is reopened by a new message (decideInbound).
    const routing = !thread
      ? defaultTeamExists
        ? await loadRouting(db, ctx.tenantId, cmd.defaultTeamId)
        : null
      : cmd.messageId && !filed
        ? await reopenRouting(db, ctx.tenantId, thread)
        : null;
    return { thread, messageFiled: filed, contact: await findContact(db, ctx.tenantId, cmd.contact), defaultTeamExists, routing };
  },
  decide: (s) => decideInbound(cmd, s),
  // The thread (and the message filed in it) by its channel and external id, then by the conversation found. A routed post names none (see routed).
  keys: (s) =>
    routed(s.routing)
      ? null
      : withKeys(
          [`conversation:thread:${cmd.channelId}:${cmd.externalId}`, `conversation:${s.thread?.id ?? cmd.conversationId}`],
          contactKeys(cmd.contact, s.contact),
        ),
});

/** Keys of a command that finds a contact: none to name when the contact's cannot be named. */
const withKeys = (own: string[], contact: string[] | null): string[] | null => (contact === null ? null : [...own, ...contact]);

/** Destroys a part's data key beside the event that says so (nothing when the command decided nothing). */
const forgetPart =
  (partId: string, forgettable: Forgettable): CommandSpec<PartView | null, ConversationEvent>['beside'] =>
  async (db, events, ctx) => {
    if (events.length) await forgettable.destroy(db, ctx.tenantId, [`part:${partId}`]);
  };

/**
 * Redacts a part: its data key is destroyed in the same transaction that appends
 * the event, so its body and attachments read as null everywhere from the commit on.
 */
export const redactPart = (
  cmd: { conversationId: string; partId: string; by: Author },
  forgettable: Forgettable,
): CommandSpec<PartView | null, ConversationEvent> => ({
  name: 'RedactPart',
  load: (db, ctx) => partView(db, ctx.tenantId, cmd.partId),
  decide: (part) => decideRedact(cmd, part),
  beside: forgetPart(cmd.partId, forgettable),
});

/** Unsends a teammate's own comment (within the window); its content is destroyed as by a redaction. */
export const unsendPart = (
  cmd: { conversationId: string; partId: string; windowSeconds: number },
  forgettable: Forgettable,
): CommandSpec<PartView | null, ConversationEvent> => ({
  name: 'UnsendPart',
  load: (db, ctx) => partView(db, ctx.tenantId, cmd.partId),
  decide: (part, ctx) => decideUnsend({ ...cmd, actorMemberId: ctx.actor.member_id, now: ctx.now }, part),
  beside: forgetPart(cmd.partId, forgettable),
});

/** Merges a conversation into another of its channel (decideMerge): both are named, so it is loaded beside others. */
export const mergeConversation = (cmd: {
  sourceId: string;
  targetId: string;
  closePartId: string;
  mergedPartId: string;
  author: Author;
}): CommandSpec<{ source: ConversationView | null; target: ConversationView | null }, ConversationEvent> => ({
  name: 'MergeConversation',
  load: async (db, ctx) => ({
    source: conversationView(await findConversation(db, ctx.tenantId, cmd.sourceId)),
    target: conversationView(await findConversation(db, ctx.tenantId, cmd.targetId)),
  }),
  decide: (s) => decideMerge(cmd, s),
  keys: () => [`conversation:${cmd.sourceId.toLowerCase()}`, `conversation:${cmd.targetId.toLowerCase()}`],
});

/** Tags a conversation (add) or takes a tag off it: a delta, so concurrent taggers never undo each other. */
export const tagConversation = (cmd: {
  conversationId: string;
  tagId: string;
  add: boolean;
}): CommandSpec<{ conversation: ConversationView | null; tag: TagView | null }, ConversationEvent> => ({
  name: cmd.add ? 'TagConversation' : 'UntagConversation',
  load: async (db, ctx) => ({
    conversation: conversationView(await findConversation(db, ctx.tenantId, cmd.conversationId)),
    tag: tagView(await findTag(db, ctx.tenantId, cmd.tagId)),
  }),
  decide: (s) => decideTagConversation(cmd, s),
});
