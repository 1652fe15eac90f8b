// Pure rules of the e-mail channel: filing an inbound message (a new
// conversation, or a part of the one it threads into), recording a reply the
// relay accepted, and a delivery that failed for good.
import { fileChannelMessage, type ConversationEvent, type TeamRouting } from '../conversations/index.js';
import { decideFindOrFillContact, type ContactEvent, type ContactInput, type ContactView } from '../contacts/index.js';
import { authenticated, type Authentication } from './auth.js';
import type { EmailEvent, EmailReceivedPayload } from './email.events.js';
import type { Address } from './mime.js';
import { storable, truncate } from '../../platform/text.js';

export type ThreadedBy = EmailReceivedPayload['threaded_by'];

export interface InboundEmail {
  channelId: string;
  defaultTeamId: string | null;
  /** ids for what the message may create */
  conversationId: string;
  contactId: string;
  partId: string;
  messageId: string;
  messageIdHash: string;
  from: Address;
  to: Address[];
  cc: Address[];
  subject: string | null;
  text: string;
  quoted: string | null;
  html: string | null;
  attachments: { name: string | null; content_type: string; size: number }[];
  authentication: Authentication;
  automated: boolean;
  at: string;
}

export interface InboundEmailState {
  /** a message with this Message-ID was filed on the channel already (an MTA's retry) */
  duplicate: boolean;
  /** the conversation the message threads into, and by what; null: it opens one */
  thread: { id: string; state: 'open' | 'closed' | 'snoozed'; by: Exclude<ThreadedBy, 'new'>; assigneeId?: string | null; teamId?: string | null } | null;
  contact: ContactView | null;
  defaultTeamExists: boolean;
  /** the assignment rule of the team a new or reopened unassigned conversation lands in (conversations' routing); null: none */
  routing?: TeamRouting | null;
}

/**
 * No aligned DMARC pass (fail, none, temperror, permerror, an evaluation error, not exactly one From author: see
 * auth.ts): the From may be forged. Filed, flagged, and threaded nowhere.
 */
export const isSuspicious = (a: Authentication): boolean => !authenticated(a);

/** The external_id of the unverified contact a sender without a DMARC pass is filed under (see senderIdentity). */
export const UNVERIFIED_PREFIX = 'unverified-email:';

/**
 * Who the message is filed under. An authenticated sender (an aligned DMARC pass): the contact holding the From
 * address, found or filled. Anything else: the From may be forged, so it never lands in that contact's history
 * (nor fills its blank name): it is filed under an unverified contact of its own, found or filled by the
 * external_id `unverified-email:<address>`, with no e-mail (so nothing finding contacts by e-mail ever reaches it);
 * the same forged From always comes back to that one contact, in a new conversation each time.
 */
export function senderIdentity(cmd: Pick<InboundEmail, 'from' | 'authentication'>): ContactInput {
  const name = cmd.from.name ? { name: cmd.from.name } : {};
  return isSuspicious(cmd.authentication) ? { external_id: `${UNVERIFIED_PREFIX}${cmd.from.address}`, ...name } : { email: cmd.from.address, ...name };
}

/** Where the download of a part's attachment lives (the part's `attachments[].url`). */
export const attachmentUrl = (conversationId: string, partId: string, index: number) =>
  `/api/conversations/${conversationId}/parts/${partId}/attachments/${index}`;

export function decideInboundEmail(cmd: InboundEmail, s: InboundEmailState): (ConversationEvent | ContactEvent | EmailEvent)[] {
  if (s.duplicate) return [];
  const suspicious = isSuspicious(cmd.authentication);
  const thread = suspicious ? null : s.thread;
  const conversationId = thread?.id ?? cmd.conversationId;
  // What is e-mail's own: who the sender is taken for, its threading, and that an auto-reply or a bounce-like
  // message never reopens. The rest is every channel's (conversations' fileChannelMessage).
  const filed = fileChannelMessage({
    channelId: cmd.channelId,
    defaultTeamId: cmd.defaultTeamId,
    conversationId: cmd.conversationId,
    partId: cmd.partId,
    contact: decideFindOrFillContact(cmd.contactId, senderIdentity(cmd), s.contact, cmd.channelId),
    thread: thread && { id: thread.id, state: thread.state, assigneeId: thread.assigneeId ?? null, teamId: thread.teamId ?? null },
    externalId: null,
    subject: cmd.subject,
    body: cmd.text,
    messageExternalId: null,
    attachments: cmd.attachments.map((a, i) => ({
      url: attachmentUrl(conversationId, cmd.partId, i),
      ...(a.name ? { name: a.name } : {}),
      content_type: a.content_type,
      size: a.size,
    })),
    sent_at: cmd.at,
    mayReopen: !cmd.automated,
    defaultTeamExists: s.defaultTeamExists,
    routing: s.routing ?? null,
  });
  const received: EmailEvent = {
    type: 'email.received',
    aggregate_type: 'conversation',
    aggregate_id: conversationId,
    payload: {
      conversation_id: conversationId,
      part_id: cmd.partId,
      channel_id: cmd.channelId,
      message_id_hash: cmd.messageIdHash,
      threaded_by: thread?.by ?? 'new',
      authentication: cmd.authentication,
      suspicious,
      automated: cmd.automated,
      message_id: cmd.messageId,
      from: cmd.from,
      to: cmd.to,
      cc: cmd.cc,
      subject: cmd.subject,
      html: cmd.html,
      quoted: cmd.quoted,
      attachments: cmd.attachments,
    },
  };
  // The assignment follows the message's own events, e-mail's included.
  return [...filed.message, received, ...filed.routed];
}

export interface SentEmail {
  conversationId: string;
  partId: string;
  channelId: string;
  messageId: string;
  messageIdHash: string;
  to: Address[];
  subject: string;
  relayResponse: string;
}

/** The relay accepted a reply: recorded once (a resend after a lost record records nothing more). */
export function decideSent(cmd: SentEmail, s: { recorded: boolean }): EmailEvent[] {
  if (s.recorded) return [];
  return [
    {
      type: 'email.sent',
      aggregate_type: 'conversation',
      aggregate_id: cmd.conversationId,
      payload: {
        conversation_id: cmd.conversationId,
        part_id: cmd.partId,
        channel_id: cmd.channelId,
        message_id_hash: cmd.messageIdHash,
        relay_response: truncate(storable(cmd.relayResponse), 500),
        message_id: cmd.messageId,
        to: cmd.to,
        subject: cmd.subject,
      },
    },
  ];
}

export interface DeliveryFailure {
  conversationId: string;
  partId: string;
  channelId: string;
  reason: 'rejected' | 'bounced';
  status: number | null;
  diagnostic: string;
}

/** A reply that could not be delivered: marked once, whichever way the failure is learnt first. */
export function decideDeliveryFailed(cmd: DeliveryFailure, s: { failed: boolean }): EmailEvent[] {
  if (s.failed) return [];
  return [
    {
      type: 'conversation_part.delivery_failed',
      aggregate_type: 'conversation',
      aggregate_id: cmd.conversationId,
      payload: {
        conversation_id: cmd.conversationId,
        part_id: cmd.partId,
        channel_id: cmd.channelId,
        reason: cmd.reason,
        status: cmd.status,
        diagnostic: truncate(storable(cmd.diagnostic), 1000),
      },
    },
  ];
}
