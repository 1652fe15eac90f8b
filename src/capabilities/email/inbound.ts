// One inbound e-mail, from the SMTP receiver or the raw MIME route, filed the
// same way: a bounce sent to a reply's bounce address (VERP, its MAC verified)
// is attached to that reply; any other delivery report is dropped, since nothing
// proves where it came from (a reply's Message-ID is no secret: the customer
// sees it); our own mail coming back is dropped; anything else is authenticated
// (SPF, DKIM, DMARC), parsed, threaded and filed as a part, its attachments
// sealed beside the log.
import { randomUUID } from 'node:crypto';
import type { CoreDeps } from '../capability.js';
import type { ChannelRow } from '../channels/index.js';
import { inSharedMemory } from '../../platform/offload.js';
import { authenticateSender } from './auth.js';
import { baseAddress, conversationOfReplyAddress, partOfBounceAddress, replyAddressKey } from './addresses.js';
import { fileInboundEmail, recordDeliveryFailed } from './email.commands.js';
import { attachmentCount, emailOfPart, messageKnown } from './email.read.js';
import { parseOffLoop } from './mail-parser.js';
import { messageIdHash, type ParseResult, type ParsedAttachment } from './mime.js';
import type { CommandContext } from '../../commands/command.js';

export { TooComplex, Unreadable } from './mail-parser.js';

export type Receipt =
  | { status: 'conversation_created' | 'part_added'; conversation_id: string; part_id: string; contact_id: string }
  | { status: 'duplicate' | 'bounce' | 'ignored'; conversation_id: string | null; part_id: string | null };

export interface SmtpSession {
  /** the client's address; null over HTTP (read from the message's Received header instead) */
  ip: string | null;
  helo: string | null;
  /** MAIL FROM: '' for the null return path, null when unknown (HTTP) */
  sender: string | null;
  /** the recipient that named the channel (a reply address carries its conversation) */
  recipient: string;
}

export async function receiveEmail(deps: CoreDeps, channel: ChannelRow, raw: Buffer, session: SmtpSession): Promise<Receipt> {
  // Parsed and authenticated in threads, which read the bytes where they are: the HTTP route's are copied there once, not once a task.
  const bytes = inSharedMemory(raw);
  // Off the event loop, within the budget: TooComplex (over it even as text) and Unreadable are the caller's to answer.
  const parsed = await parseOffLoop(deps.offload, bytes, { timeoutMs: deps.config.mailParseTimeoutMs });
  const tenantId = channel.tenant_id;
  const act = <T>(fn: () => Promise<T>) => deps.scope.run(tenantId, fn);
  const ctx = () => ({ tenantId, now: deps.clock.now(), actor: { type: 'channel' as const, id: channel.id }, requestId: randomUUID() });

  if (parsed.report) return fileBounce(deps, channel, parsed, session, act, ctx);
  // Our own mail coming back (a forwarder's loop): never filed, never answered.
  if (!parsed.from || baseAddress(parsed.from.address) === channel.address?.toLowerCase()) return { status: 'ignored', conversation_id: null, part_id: null };

  const authentication = await authenticateSender(deps.offload, bytes, session, channel.address ?? 'localhost', deps.dns, {
    timeoutMs: deps.config.mailAuthTimeoutMs,
  });
  // Without a Message-ID the bytes are the identity (hashed in the parser's thread): the same message delivered twice is still one.
  const messageId = parsed.identity;
  const hash = messageIdHash(messageId);
  const ids = { conversationId: deps.ids.uuid(), contactId: deps.ids.uuid(), partId: deps.ids.uuid() };
  const replyTo = await replyAddressNamed(deps, channel, [session.recipient, ...parsed.to.map((a) => a.address), ...parsed.cc.map((a) => a.address)]);
  const { events } = await act(() =>
    deps.shell.execute(
      ctx(),
      fileInboundEmail(
        {
          channelId: channel.id,
          defaultTeamId: channel.default_team_id,
          ...ids,
          messageId,
          messageIdHash: hash,
          from: parsed.from!,
          to: parsed.to,
          cc: parsed.cc,
          subject: parsed.subject,
          text: parsed.text,
          quoted: parsed.quoted,
          html: parsed.html,
          attachments: parsed.attachments.map((a) => ({ name: a.name, content_type: a.content_type, size: a.content.length })),
          authentication,
          // A null return path (bounces, auto-replies) or automated headers: never answered automatically.
          automated: parsed.automated || session.sender === '',
          at: (parsed.date ?? deps.clock.now()).toISOString(),
        },
        { replyTo, inReplyTo: parsed.inReplyTo, references: parsed.references },
      ),
    ),
  );
  const part = events.find((e) => e.type === 'conversation_part.created');
  if (!part || part.type !== 'conversation_part.created') {
    // An MTA's retry: nothing new is filed, but attachments a crash kept from being stored the first time are stored now.
    const known = await act(() => messageKnown(deps.db, tenantId, channel.id, hash));
    if (known && known.direction === 'in') await storeAttachments(deps, tenantId, known.conversation_id, known.part_id, parsed.attachments);
    return { status: 'duplicate', conversation_id: known?.conversation_id ?? null, part_id: known?.part_id ?? null };
  }
  await storeAttachments(deps, tenantId, part.aggregate_id, part.payload.part_id, parsed.attachments);
  return {
    status: events.some((e) => e.type === 'conversation.created') ? 'conversation_created' : 'part_added',
    conversation_id: part.aggregate_id,
    part_id: part.payload.part_id,
    contact_id: part.payload.author.id,
  };
}

/**
 * A delivery report: attached to the reply its bounce address names (never the one a Message-ID in the report
 * names), as that reply's delivery failure; anything else is ignored.
 */
async function fileBounce(
  deps: CoreDeps,
  channel: ChannelRow,
  parsed: ParseResult,
  session: SmtpSession,
  act: <T>(fn: () => Promise<T>) => Promise<T>,
  ctx: () => CommandContext,
): Promise<Receipt> {
  const ignored: Receipt = { status: 'ignored', conversation_id: null, part_id: null };
  const bounce = parsed.bounce;
  const partId = bounce ? await bouncedPartNamed(deps, channel, [session.recipient, ...parsed.to.map((a) => a.address)]) : null;
  if (!bounce || !partId) return ignored;
  const sent = await act(() => emailOfPart(deps.db, channel.tenant_id, partId));
  if (!sent || sent.direction !== 'out' || sent.channel_id !== channel.id) return ignored;
  await act(() =>
    deps.shell.execute(
      ctx(),
      recordDeliveryFailed({
        conversationId: sent.conversation_id,
        partId: sent.part_id,
        channelId: channel.id,
        reason: 'bounced',
        status: bounce.status,
        diagnostic: bounce.diagnostic,
      }),
    ),
  );
  return { status: 'bounce', conversation_id: sent.conversation_id, part_id: sent.part_id };
}

/**
 * The conversation the first reply address of the channel among these recipients names: the SMTP envelope's
 * recipient first, then the To and Cc headers (over HTTP the envelope is unknown, and a forwarder keeps the
 * headers). Only a tag whose MAC verifies for this channel counts, so a header names nothing a forger could not
 * name anyway; a forged or altered tag is taken as the bare support address.
 */
async function replyAddressNamed(deps: CoreDeps, channel: ChannelRow, recipients: string[]): Promise<string | null> {
  const mailbox = channel.address?.toLowerCase();
  const tagged = recipients.filter((r) => r.includes('+') && baseAddress(r) === mailbox);
  if (tagged.length === 0) return null;
  const key = await replyAddressKey(deps.config);
  for (const r of tagged) {
    const id = conversationOfReplyAddress(key, { tenantId: channel.tenant_id, channelId: channel.id }, r);
    if (id) return id;
  }
  return null;
}

/**
 * The sent reply the first bounce address of the channel among these recipients names: the SMTP envelope's recipient
 * first (where an MTA sends a DSN: the reply's return path), then the To header (over HTTP the envelope is unknown).
 * Only a tag whose MAC verifies for this channel, made for a bounce address, counts.
 */
async function bouncedPartNamed(deps: CoreDeps, channel: ChannelRow, recipients: string[]): Promise<string | null> {
  const mailbox = channel.address?.toLowerCase();
  const tagged = recipients.filter((r) => r.includes('+') && baseAddress(r) === mailbox);
  if (tagged.length === 0) return null;
  const key = await replyAddressKey(deps.config);
  for (const r of tagged) {
    const id = partOfBounceAddress(key, { tenantId: channel.tenant_id, channelId: channel.id }, r);
    if (id) return id;
  }
  return null;
}

/**
 * Seals each attachment (name, type, bytes) under the part's data key, which the filing committed, and keeps it
 * beside the log. Before the sender hears 250: a crash in between makes it send again, and the retry stores them.
 */
async function storeAttachments(deps: CoreDeps, tenantId: string, conversationId: string, partId: string, attachments: ParsedAttachment[]): Promise<void> {
  if (attachments.length === 0) return;
  await deps.scope.run(tenantId, async () => {
    if ((await attachmentCount(deps.db, tenantId, partId)) >= attachments.length) return;
    // The part was redacted or its contact erased meanwhile: nothing may be stored for it.
    if ((await emailOfPart(deps.db, tenantId, partId))?.message_id == null) return;
    const rows = [];
    for (const [index, a] of attachments.entries()) {
      const doc = {
        type: 'conversation_part',
        id: partId,
        attachments: [{ name: a.name, content_type: a.content_type, content: a.content.toString('base64') }],
      };
      const sealed = (await deps.forgettable.shred(deps.db, tenantId, doc)) as { attachments: unknown };
      if (!sealed.attachments || Array.isArray(sealed.attachments)) return; // the key is gone: erased since
      rows.push({
        tenant_id: tenantId,
        part_id: partId,
        index,
        conversation_id: conversationId,
        size: a.content.length,
        sealed: JSON.stringify(sealed.attachments),
      });
    }
    await deps.db('email_attachments').insert(rows).onConflict(['tenant_id', 'part_id', 'index']).ignore();
  });
}

/** Opens a stored attachment; null once its part's key is gone (redacted, erased). */
export async function openAttachment(
  deps: CoreDeps,
  tenantId: string,
  partId: string,
  sealed: string,
): Promise<{ name: string | null; content_type: string; content: Buffer } | null> {
  const doc = (await deps.forgettable.reveal(deps.db, tenantId, { type: 'conversation_part', id: partId, attachments: JSON.parse(sealed) })) as {
    attachments: { name: string | null; content_type: string; content: string }[] | null;
  };
  const a = doc.attachments?.[0];
  return a ? { name: a.name, content_type: a.content_type, content: Buffer.from(a.content, 'base64') } : null;
}
