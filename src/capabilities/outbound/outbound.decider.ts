// Pure outbound rules. A collection is edited only as a draft; `send` either
// schedules it (send_at in the future: the audience is resolved when the
// schedule fires) or resolves the audience now, once, into one recipient per
// contact (archived, erased and unknown contacts skipped with the reason).
// Each recipient then gets an outcome of its own, decided under the
// workspace's append lock on the current state, so a repeated or concurrent
// delivery of the same recipient decides nothing.
import { BadRequest, Conflict, NotFound, Unprocessable } from '../../platform/errors.js';
import type { Audience, OutboundAuthor, OutboundEvent, SkipReason } from './outbound.events.js';
import { MAX_COLLECTIONS, type CollectionState } from './outbound.read.js';

/** The most recipients one collection resolves to (its outbound.sending event lists them all). */
export const MAX_AUDIENCE = 10_000;

export interface CollectionView {
  id: string;
  state: CollectionState;
  sendAt: Date | null;
}

export interface Draft {
  id: string;
  name: string;
  channel_id: string;
  subject: string | null;
  body: string;
  audience: Audience;
  send_at: string | null;
}

const ev = <T extends OutboundEvent['type']>(type: T, id: string, payload: Extract<OutboundEvent, { type: T }>['payload']) =>
  ({ type, aggregate_type: 'outbound', aggregate_id: id, payload }) as Extract<OutboundEvent, { type: T }>;

const notDraft = (c: CollectionView, what: string) => new Conflict('outbound_not_draft', `Only a draft can be ${what}; this collection is ${c.state}.`);
const unknownChannel = () => new BadRequest('unknown_channel', 'channel_id names no channel of this workspace.', 'channel_id');

export function decideCreate(cmd: Draft, s: { count: number; channelExists: boolean }): OutboundEvent[] {
  if (!s.channelExists) throw unknownChannel();
  if (s.count >= MAX_COLLECTIONS)
    throw new Unprocessable('limit_reached', `A workspace holds at most ${MAX_COLLECTIONS} outbound collections; delete a draft first.`);
  return [ev('outbound.created', cmd.id, { ...cmd })];
}

export function decideUpdate(
  cmd: Partial<Draft> & { id: string },
  current: (CollectionView & Omit<Draft, 'id'>) | null,
  s: { channelExists: boolean },
): OutboundEvent[] {
  if (!current) throw new NotFound('outbound collection');
  if (current.state !== 'draft') throw notDraft(current, 'changed');
  if (cmd.channel_id !== undefined && !s.channelExists) throw unknownChannel();
  const changed: Record<string, unknown> = {};
  for (const k of ['name', 'channel_id', 'subject', 'body', 'audience', 'send_at'] as const) {
    if (cmd[k] !== undefined && JSON.stringify(cmd[k]) !== JSON.stringify(current[k])) changed[k] = cmd[k];
  }
  return Object.keys(changed).length ? [ev('outbound.updated', current.id, { id: current.id, ...changed })] : [];
}

export function decideDelete(c: CollectionView | null): OutboundEvent[] {
  if (!c) throw new NotFound('outbound collection');
  if (c.state !== 'draft') throw notDraft(c, 'deleted');
  return [ev('outbound.deleted', c.id, { id: c.id })];
}

/** A contact the audience resolved to; null stands for an id that names no contact. */
export interface Resolved {
  contactId: string;
  skipped?: SkipReason;
}

/** Turns the audience's contacts into recipients: one per contact (first mention wins), archived/erased/unknown skipped. */
export function recipientsOf(contacts: readonly { id: string; archived: boolean; erased: boolean }[], askedIds: readonly string[] | null): Resolved[] {
  const seen = new Set<string>();
  const out: Resolved[] = [];
  const byId = new Map(contacts.map((c) => [c.id, c]));
  const order = askedIds ?? contacts.map((c) => c.id);
  for (const raw of order) {
    const id = raw.toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    const c = byId.get(id);
    out.push(
      !c
        ? { contactId: id, skipped: 'unknown_contact' }
        : c.erased
          ? { contactId: id, skipped: 'erased' }
          : c.archived
            ? { contactId: id, skipped: 'archived' }
            : { contactId: id },
    );
  }
  return out;
}

export interface SendState {
  collection: CollectionView | null;
  /** the resolved audience; null when it was not resolved (scheduling) */
  recipients: Resolved[] | null;
  /** the audience holds more than MAX_AUDIENCE contacts */
  tooLarge: boolean;
}

/**
 * `POST /send`: a draft with send_at in the future is scheduled; otherwise
 * sending starts now with the audience resolved in this very command.
 */
export function decideSend(cmd: { author: OutboundAuthor; memberId: string; now: Date }, s: SendState): OutboundEvent[] {
  const c = s.collection;
  if (!c) throw new NotFound('outbound collection');
  if (c.state !== 'draft') throw new Conflict('outbound_not_draft', `Only a draft can be sent; this collection is ${c.state}.`);
  if (c.sendAt && c.sendAt.getTime() > cmd.now.getTime()) {
    return [ev('outbound.scheduled', c.id, { id: c.id, send_at: c.sendAt.toISOString(), author: cmd.author, member_id: cmd.memberId })];
  }
  if (s.tooLarge) throw new Unprocessable('audience_too_large', `An audience resolves to at most ${MAX_AUDIENCE} contacts.`);
  return startSending(c.id, cmd.author, cmd.memberId, s.recipients ?? []);
}

function startSending(id: string, author: OutboundAuthor, memberId: string, recipients: Resolved[]): OutboundEvent[] {
  const sending = ev('outbound.sending', id, {
    id,
    author,
    member_id: memberId,
    audience_size: recipients.length,
    recipients: recipients.map((r) => (r.skipped ? { contact_id: r.contactId, skipped: r.skipped } : { contact_id: r.contactId })),
  });
  // Nothing to send (an empty audience, or every contact skipped): sending is over at once.
  if (recipients.every((r) => r.skipped)) return [sending, ev('outbound.sent', id, { id, sent: 0, failed: 0, skipped: recipients.length })];
  return [sending];
}

/** A schedule fires: the audience is resolved now. Decides nothing unless the collection is still scheduled and due. */
export function decideFire(cmd: { now: Date }, s: SendState & { author: OutboundAuthor | null; memberId: string | null; invalid?: boolean }): OutboundEvent[] {
  const c = s.collection;
  if (!c || c.state !== 'scheduled' || !c.sendAt || c.sendAt.getTime() > cmd.now.getTime() || !s.author || !s.memberId) return [];
  if (s.invalid) return [ev('outbound.cancelled', c.id, { id: c.id, reason: 'audience_invalid', contact_ids: [] })];
  if (s.tooLarge) return [ev('outbound.cancelled', c.id, { id: c.id, reason: 'audience_too_large', contact_ids: [] })];
  return startSending(c.id, s.author, s.memberId, s.recipients ?? []);
}

/** Cancel: scheduled or sending (or a draft); every recipient still pending is cancelled, in the same event. */
export function decideCancel(s: { collection: CollectionView | null; pending: string[] }): OutboundEvent[] {
  const c = s.collection;
  if (!c) throw new NotFound('outbound collection');
  if (c.state === 'sent' || c.state === 'cancelled') throw new Conflict('outbound_finished', `The collection is already ${c.state}.`);
  return [ev('outbound.cancelled', c.id, { id: c.id, reason: 'requested', contact_ids: s.pending })];
}

/** What a recipient's turn comes to, before any conversation is started. */
export type RecipientOutcome =
  | { kind: 'nothing' }
  | { kind: 'already_started' }
  | { kind: 'skip'; reason: SkipReason }
  | { kind: 'fail'; code: string; message: string }
  | { kind: 'start' };

export interface RecipientState {
  collectionState: CollectionState | null;
  recipientStatus: string | null;
  /** the conversation derived from (collection, contact) exists already */
  conversationExists: boolean;
  contact: { archived: boolean; erased: boolean; externalId: string | null } | null;
  channelKind: string | null;
}

export function recipientOutcome(s: RecipientState): RecipientOutcome {
  if (s.collectionState !== 'sending' || s.recipientStatus !== 'pending') return { kind: 'nothing' };
  if (s.conversationExists) return { kind: 'already_started' };
  if (!s.contact || s.contact.erased) return { kind: 'skip', reason: s.contact ? 'erased' : 'unknown_contact' };
  if (s.contact.archived) return { kind: 'skip', reason: 'archived' };
  if (!s.channelKind) return { kind: 'fail', code: 'unknown_channel', message: "The collection's channel no longer exists." };
  if (s.channelKind === 'api' && !s.contact.externalId) {
    return { kind: 'fail', code: 'contact_unreachable', message: "The contact has no external_id, which an api channel's bridge needs to reach them." };
  }
  return { kind: 'start' };
}

/** The recipient's own event for an outcome (null for `start`, whose event follows the conversation's). */
export function recipientEvents(collectionId: string, contactId: string, o: RecipientOutcome, conversationId: string): OutboundEvent[] {
  switch (o.kind) {
    case 'nothing':
      return [];
    case 'already_started':
    case 'start':
      return [ev('outbound_recipient.sent', collectionId, { collection_id: collectionId, contact_id: contactId, conversation_id: conversationId })];
    case 'skip':
      return [ev('outbound_recipient.skipped', collectionId, { collection_id: collectionId, contact_id: contactId, reason: o.reason })];
    case 'fail':
      return [ev('outbound_recipient.failed', collectionId, { collection_id: collectionId, contact_id: contactId, code: o.code, message: o.message })];
  }
}

/** After this recipient's outcome, was it the last pending one? Then sending is over, in the same command. */
export function completion(
  collectionId: string,
  counts: { pending: number; sent: number; failed: number; skipped: number },
  o: RecipientOutcome,
): OutboundEvent[] {
  if (o.kind === 'nothing' || counts.pending !== 1) return [];
  return [
    ev('outbound.sent', collectionId, {
      id: collectionId,
      sent: counts.sent + (o.kind === 'start' || o.kind === 'already_started' ? 1 : 0),
      failed: counts.failed + (o.kind === 'fail' ? 1 : 0),
      skipped: counts.skipped + (o.kind === 'skip' ? 1 : 0),
    }),
  ];
}

/** A failure the worker gave up retrying (the start command kept failing): the recipient fails, the rest go on. */
export function decideGiveUp(
  s: { collectionState: CollectionState | null; recipientStatus: string | null; counts: { pending: number; sent: number; failed: number; skipped: number } },
  cmd: { collectionId: string; contactId: string; message: string },
): OutboundEvent[] {
  if (s.collectionState !== 'sending' || s.recipientStatus !== 'pending') return [];
  const o: RecipientOutcome = { kind: 'fail', code: 'send_failed', message: cmd.message };
  return [...recipientEvents(cmd.collectionId, cmd.contactId, o, ''), ...completion(cmd.collectionId, s.counts, o)];
}
