// Outbound commands, built from plain inputs; routes and the worker run them through the shell.
import type { CommandContext, CommandSpec, Db } from '../../commands/command.js';
import { deterministicUuid } from '../../platform/ids.js';
import { channelFacts, findChannel } from '../channels/index.js';
import { audienceContacts, findContactRow, type ContactEvent, type ContactRow } from '../contacts/index.js';
import { findConversation, startConversation, type ConversationEvent, type FileAttached, type StartState } from '../conversations/index.js';
import { findMember } from '../members/index.js';
import { parseTemplate, renderTemplate } from '../saved-replies/index.js';
import { findTag } from '../tags/index.js';
import {
  completion,
  decideCancel,
  decideCreate,
  decideDelete,
  decideFire,
  decideGiveUp,
  decideSend,
  decideUpdate,
  MAX_AUDIENCE,
  recipientEvents,
  recipientOutcome,
  recipientsOf,
  type CollectionView,
  type Draft,
  type RecipientOutcome,
  type Resolved,
  type SendState,
} from './outbound.decider.js';
import type { Audience, OutboundAuthor, OutboundEvent } from './outbound.events.js';
import { countCollections, findCollection, findRecipient, pendingContactIds, type CollectionRow } from './outbound.read.js';
import { AppError, BadRequest } from '../../platform/errors.js';

/** The conversation a recipient starts: derived from (workspace, collection, contact), so no retry can start a second one. */
export const recipientConversationId = (tenantId: string, collectionId: string, contactId: string) =>
  deterministicUuid('outbound-conversation', tenantId, collectionId, contactId);
const recipientPartId = (tenantId: string, collectionId: string, contactId: string) => deterministicUuid('outbound-part', tenantId, collectionId, contactId);

const view = (c: CollectionRow | undefined): CollectionView | null => (c ? { id: c.id, state: c.state, sendAt: c.send_at } : null);
const channelExists = async (db: Db, ctx: CommandContext, id: string | undefined) =>
  id === undefined ? true : (await channelFacts(db, ctx.tenantId, id)) !== null;

/** The position of the first tag of an audience that names no tag of the workspace, or null. */
async function firstUnknownTag(db: Db, tenantId: string, audience: Audience | undefined): Promise<number | null> {
  if (!audience || !('tag_ids' in audience)) return null;
  for (const [i, id] of audience.tag_ids.entries()) if (!(await findTag(db, tenantId, id))) return i;
  return null;
}

const checkTags = (unknownTag: number | null) => {
  if (unknownTag !== null) throw new BadRequest('unknown_tag', 'The audience names a tag this workspace does not have.', `audience.tag_ids.${unknownTag}`);
};

export const createCollection = (input: Draft): CommandSpec<{ count: number; channelExists: boolean; unknownTag: number | null }, OutboundEvent> => ({
  name: 'CreateOutbound',
  load: async (db, ctx) => ({
    count: await countCollections(db, ctx.tenantId),
    channelExists: await channelExists(db, ctx, input.channel_id),
    unknownTag: await firstUnknownTag(db, ctx.tenantId, input.audience),
  }),
  decide: (s) => {
    parseTemplate(input.body);
    checkTags(s.unknownTag);
    return decideCreate(input, s);
  },
});

type Current = (CollectionView & Omit<Draft, 'id'>) | null;

export const updateCollection = (
  input: Partial<Draft> & { id: string },
): CommandSpec<{ current: Current; channelExists: boolean; unknownTag: number | null }, OutboundEvent> => ({
  name: 'UpdateOutbound',
  load: async (db, ctx) => {
    const c = await findCollection(db, ctx.tenantId, input.id);
    return {
      current: c
        ? {
            id: c.id,
            state: c.state,
            sendAt: c.send_at,
            name: c.name,
            channel_id: c.channel_id,
            subject: c.subject,
            body: c.body,
            audience: c.audience,
            send_at: c.send_at?.toISOString() ?? null,
          }
        : null,
      channelExists: await channelExists(db, ctx, input.channel_id),
      unknownTag: await firstUnknownTag(db, ctx.tenantId, input.audience),
    };
  },
  decide: (s) => {
    if (input.body !== undefined) parseTemplate(input.body);
    checkTags(s.unknownTag);
    return decideUpdate(input, s.current, s);
  },
});

export const deleteCollection = (id: string): CommandSpec<CollectionView | null, OutboundEvent> => ({
  name: 'DeleteOutbound',
  load: async (db, ctx) => view(await findCollection(db, ctx.tenantId, id)),
  decide: (c) => decideDelete(c),
});

/**
 * Resolves an audience, once, inside the command that starts sending (so under
 * the workspace's append lock: the recipients are the contacts as of that seq).
 */
async function resolveAudience(db: Db, tenantId: string, audience: Audience): Promise<{ recipients: Resolved[]; tooLarge: boolean }> {
  if ('contact_ids' in audience) {
    const asked = audience.contact_ids;
    const contacts = await audienceContacts(db, tenantId, { ids: asked }, MAX_AUDIENCE + 1);
    const recipients = recipientsOf(contacts, asked);
    return { recipients, tooLarge: recipients.length > MAX_AUDIENCE };
  }
  if ('tag_ids' in audience) {
    const contacts = await audienceContacts(db, tenantId, { tagIds: audience.tag_ids }, MAX_AUDIENCE + 1);
    return { recipients: recipientsOf(contacts, null), tooLarge: contacts.length > MAX_AUDIENCE };
  }
  // The contacts filter language (as POST /api/contacts/search): erased contacts never match it.
  const contacts = await audienceContacts(db, tenantId, { query: audience.query }, MAX_AUDIENCE + 1);
  return { recipients: recipientsOf(contacts, null), tooLarge: contacts.length > MAX_AUDIENCE };
}

export const sendCollection = (input: { id: string; author: OutboundAuthor; memberId: string }): CommandSpec<SendState, OutboundEvent> => ({
  name: 'SendOutbound',
  load: async (db, ctx) => {
    const c = await findCollection(db, ctx.tenantId, input.id);
    // Scheduling resolves nothing: the audience is read when the schedule fires.
    if (!c || c.state !== 'draft' || (c.send_at && c.send_at.getTime() > ctx.now.getTime())) return { collection: view(c), recipients: null, tooLarge: false };
    return { collection: view(c), ...(await resolveAudience(db, ctx.tenantId, c.audience)) };
  },
  decide: (s, ctx) => decideSend({ author: input.author, memberId: input.memberId, now: ctx.now }, s),
});

export const fireSchedule = (id: string): CommandSpec<SendState & { author: OutboundAuthor | null; memberId: string | null }, OutboundEvent> => ({
  name: 'FireOutboundSchedule',
  load: async (db, ctx) => {
    const c = await findCollection(db, ctx.tenantId, id);
    const due = c && c.state === 'scheduled' && c.send_at && c.send_at.getTime() <= ctx.now.getTime();
    let resolved: { recipients: Resolved[] | null; tooLarge: boolean; invalid?: boolean } = { recipients: null, tooLarge: false };
    if (due) {
      try {
        resolved = await resolveAudience(db, ctx.tenantId, c.audience);
      } catch (e) {
        // A stored filter query the language no longer reads (refused before any SQL ran): cancelled, with the reason.
        if (!(e instanceof AppError)) throw e;
        resolved = { recipients: null, tooLarge: false, invalid: true };
      }
    }
    return { collection: view(c), ...resolved, author: c?.author ?? null, memberId: c?.member_id ?? null };
  },
  decide: (s, ctx) => decideFire({ now: ctx.now }, s),
});

export const cancelCollection = (id: string): CommandSpec<{ collection: CollectionView | null; pending: string[] }, OutboundEvent> => ({
  name: 'CancelOutbound',
  load: async (db, ctx) => {
    const c = await findCollection(db, ctx.tenantId, id);
    return { collection: view(c), pending: c && c.state === 'sending' ? await pendingContactIds(db, ctx.tenantId, c.id) : [] };
  },
  decide: (s) => decideCancel(s),
});

interface DeliverState {
  outcome: RecipientOutcome;
  conversationId: string;
  counts: { pending: number; sent: number; failed: number; skipped: number };
  start: { spec: ReturnType<typeof startConversation>; state: StartState } | null;
}

const counts = (c: CollectionRow | undefined) => ({ pending: c?.pending ?? 0, sent: c?.sent ?? 0, failed: c?.failed ?? 0, skipped: c?.skipped ?? 0 });

/** A template's value for a contact, the new conversation and the member who sent the collection (the saved replies' placeholders). */
function render(body: string, contact: ContactRow, conversationId: string, memberName: string | null | undefined): string {
  const lookup = (variable: string) => {
    switch (variable) {
      case 'contact.name':
        return contact.name;
      case 'contact.email':
        return contact.email;
      case 'conversation.id':
        return conversationId;
      case 'member.name':
        return memberName;
      default: {
        const key = variable.slice('contact.custom_attributes.'.length);
        const attrs = contact.custom_attributes ?? {};
        return Object.hasOwn(attrs, key) ? attrs[key] : undefined;
      }
    }
  };
  return renderTemplate(parseTemplate(body), lookup).body;
}

/**
 * One recipient's turn: starts its conversation (first part = the rendered
 * template, a comment by whoever sent the collection, so the channel's bridge
 * gets it like any reply) and marks it sent, in one transaction; or marks it
 * skipped or failed. Decided on the state under the append lock: a recipient
 * no longer pending, or a collection no longer sending (cancelled), decides
 * nothing; a conversation that already exists under the derived id is just
 * marked sent.
 */
export const deliverRecipient = (input: {
  collectionId: string;
  contactId: string;
}): CommandSpec<DeliverState, OutboundEvent | ConversationEvent | ContactEvent | FileAttached> => ({
  name: 'DeliverOutboundRecipient',
  load: async (db, ctx) => {
    const t = ctx.tenantId;
    const conversationId = recipientConversationId(t, input.collectionId, input.contactId);
    const c = await findCollection(db, t, input.collectionId);
    const r = c ? await findRecipient(db, t, c.id, input.contactId) : undefined;
    const active = c?.state === 'sending' && r?.status === 'pending';
    const contact = active ? await findContactRow(db, t, input.contactId) : undefined;
    const channel = active ? await findChannel(db, t, c.channel_id) : undefined;
    const outcome = recipientOutcome({
      collectionState: c?.state ?? null,
      recipientStatus: r?.status ?? null,
      conversationExists: active ? (await findConversation(db, t, conversationId)) !== undefined : false,
      contact: contact ? { archived: contact.archived_at !== null, erased: contact.erased_at !== null, externalId: contact.external_id } : null,
      channelKind: channel?.kind ?? null,
    });
    let start: DeliverState['start'] = null;
    if (outcome.kind === 'start') {
      const member = c!.member_id ? await findMember(db, t, c!.member_id) : undefined;
      const spec = startConversation({
        conversationId,
        partId: recipientPartId(t, c!.id, input.contactId),
        newContactId: input.contactId,
        channelId: c!.channel_id,
        body: render(c!.body, contact!, conversationId, member?.name),
        subject: c!.subject,
        assigneeId: null,
        author: c!.author!,
        contactId: input.contactId,
        contact: null,
        refuseExisting: true,
      });
      start = { spec, state: await spec.load(db, ctx) };
    }
    return { outcome, conversationId, counts: counts(c), start };
  },
  decide: (s, ctx) => {
    const started = s.start ? s.start.spec.decide(s.start.state, ctx) : [];
    return [
      ...started,
      ...recipientEvents(input.collectionId, input.contactId, s.outcome, s.conversationId),
      ...completion(input.collectionId, s.counts, s.outcome),
    ];
  },
});

/** The worker gave up on a recipient whose start kept failing: it fails with the reason, the others go on. */
export const giveUpRecipient = (input: {
  collectionId: string;
  contactId: string;
  message: string;
}): CommandSpec<Parameters<typeof decideGiveUp>[0], OutboundEvent> => ({
  name: 'GiveUpOutboundRecipient',
  load: async (db, ctx) => {
    const c = await findCollection(db, ctx.tenantId, input.collectionId);
    const r = c ? await findRecipient(db, ctx.tenantId, c.id, input.contactId) : undefined;
    return { collectionState: c?.state ?? null, recipientStatus: r?.status ?? null, counts: counts(c) };
  },
  decide: (s) => decideGiveUp(s, input),
});

/** Completes a sending collection with no pending recipient left (a safety net; recipients' commands normally complete it). */
export const completeIfDone = (id: string): CommandSpec<CollectionRow | undefined, OutboundEvent> => ({
  name: 'CompleteOutbound',
  load: (db, ctx) => findCollection(db, ctx.tenantId, id),
  decide: (c) =>
    c && c.state === 'sending' && c.pending === 0
      ? [{ type: 'outbound.sent', aggregate_type: 'outbound', aggregate_id: c.id, payload: { id: c.id, sent: c.sent, failed: c.failed, skipped: c.skipped } }]
      : [],
});
