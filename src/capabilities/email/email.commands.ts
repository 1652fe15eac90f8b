// E-mail commands: what the receiver (SMTP or the raw MIME route) and the
// outbound transport run through the shell.
import type { CommandSpec } from '../../commands/command.js';
import { contactKeys, findContact } from '../contacts/index.js';
import { findConversation, liveConversation, loadRouting } from '../conversations/index.js';
import { teamExists } from '../teams/index.js';
import {
  decideDeliveryFailed,
  decideInboundEmail,
  decideSent,
  isSuspicious,
  senderIdentity,
  type DeliveryFailure,
  type InboundEmail,
  type InboundEmailState,
  type SentEmail,
} from './email.decider.js';
import { conversationOfMessages, emailOfPart, messageKnown } from './email.read.js';
import { messageIdHash } from './mime.js';

type InboundEvents = ReturnType<typeof decideInboundEmail>;

/** How the message names the conversation it answers: its reply address, In-Reply-To, References (never its subject). */
export interface ThreadHints {
  /** the conversation id the recipient's reply address carries, if any */
  replyTo: string | null;
  inReplyTo: string[];
  references: string[];
}

export const fileInboundEmail = (cmd: InboundEmail, hints: ThreadHints): CommandSpec<InboundEmailState, InboundEvents[number]> => ({
  name: 'FileInboundEmail',
  load: async (db, ctx) => {
    const duplicate = !!(await messageKnown(db, ctx.tenantId, cmd.channelId, cmd.messageIdHash));
    let thread: InboundEmailState['thread'] = null;
    // A merged conversation's mail is filed in the one it was merged into (of the same channel).
    const inChannel = async (id: string | null) => {
      const c = id ? await liveConversation(db, ctx.tenantId, await findConversation(db, ctx.tenantId, id)) : undefined;
      return c && c.channel_id === cmd.channelId ? c : undefined;
    };
    const candidates: [Exclude<InboundEmailState['thread'], null>['by'], () => Promise<string | null>][] = [
      ['reply_address', async () => hints.replyTo],
      ['in_reply_to', () => conversationOfMessages(db, ctx.tenantId, cmd.channelId, hints.inReplyTo.map(messageIdHash))],
      // The newest reference first: the message it most directly answers.
      ['references', () => conversationOfMessages(db, ctx.tenantId, cmd.channelId, [...hints.references].reverse().map(messageIdHash))],
    ];
    if (!duplicate) {
      for (const [by, find] of candidates) {
        const c = await inChannel(await find());
        if (c) {
          thread = { id: c.id, state: c.state as 'open' | 'closed' | 'snoozed', by, assigneeId: c.assignee_id, teamId: c.team_id };
          break;
        }
      }
    }
    const defaultTeamExists = cmd.defaultTeamId ? await teamExists(db, ctx.tenantId, cmd.defaultTeamId) : false;
    // Routing's state, when the message opens a conversation (a suspicious one always does) or reopens one nobody has.
    const opens = !thread || isSuspicious(cmd.authentication);
    const reopensUnassigned = !!thread && thread.state !== 'open' && !cmd.automated && !thread.assigneeId;
    const routing = duplicate
      ? null
      : opens
        ? defaultTeamExists
          ? await loadRouting(db, ctx.tenantId, cmd.defaultTeamId)
          : null
        : reopensUnassigned
          ? await loadRouting(db, ctx.tenantId, thread!.teamId)
          : null;
    return { duplicate, thread, contact: await findContact(db, ctx.tenantId, senderIdentity(cmd)), defaultTeamExists, routing };
  },
  decide: (s) => decideInboundEmail(cmd, s),
  // Every key of what the load read, so that filings share a group commit's keyed runs (docs/performance.md): the
  // message's own Message-ID (its duplicates) and those it answers, by their hashes (email.received writes them
  // under the same keys; the outbound rows are written by unkeyed commands), the conversations it named or found
  // (a merge names both of its own), and the sender's contact. Teams and channels are never written by a keyed
  // command. A filing that loaded a team's assignment rule names none, as conversations' routed commands do.
  keys: (s) => {
    if (s.routing) return null;
    const contact = contactKeys(senderIdentity(cmd), s.contact);
    if (contact === null) return null;
    const messages = [cmd.messageIdHash, ...hints.inReplyTo.map(messageIdHash), ...hints.references.map(messageIdHash)];
    const conversations = [cmd.conversationId, hints.replyTo, s.thread?.id].filter((id): id is string => !!id);
    return [...messages.map((h) => `email:message:${cmd.channelId}:${h}`), ...conversations.map((id) => `conversation:${id.toLowerCase()}`), ...contact];
  },
});

export const recordSent = (cmd: SentEmail): CommandSpec<{ recorded: boolean }, ReturnType<typeof decideSent>[number]> => ({
  name: 'RecordEmailSent',
  load: async (db, ctx) => ({ recorded: (await emailOfPart(db, ctx.tenantId, cmd.partId))?.delivery_status === 'sent' }),
  decide: (s) => decideSent(cmd, s),
});

export const recordDeliveryFailed = (cmd: DeliveryFailure): CommandSpec<{ failed: boolean }, ReturnType<typeof decideDeliveryFailed>[number]> => ({
  name: 'RecordEmailDeliveryFailed',
  load: async (db, ctx) => ({ failed: (await emailOfPart(db, ctx.tenantId, cmd.partId))?.delivery_status === 'failed' }),
  decide: (s) => decideDeliveryFailed(cmd, s),
});
