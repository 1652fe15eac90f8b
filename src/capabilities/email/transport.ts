// The e-mail channel's outbound side: a teammate's reply, handed over by the
// delivery worker (the same durable machinery as webhooks: leases, every attempt
// recorded, retries), goes out through the SMTP relay (SMTP_RELAY_URL). From the
// channel address, Reply-To the conversation's reply address, In-Reply-To and
// References naming the conversation's messages, a Message-ID in the channel's
// domain, DKIM-signed when the channel has a key, and the reply's own bounce
// address (VERP: the support address tagged with the part id and a MAC) as its
// return path, so only a DSN sent there can mark it failed. A 4xx (or no answer) is
// retried with the worker's backoff; a 5xx is final: the delivery is dead and
// the part gets conversation_part.delivery_failed with the relay's answer.
import { randomUUID } from 'node:crypto';
import type { DeliveryTransport } from '../../dispatch/delivery-worker.js';
import type { SendResult } from '../../dispatch/sender.js';
import { MailRefused, smtpRelay, type MailMessage, type MailRelay } from '../../platform/mail/relay.js';
import type { CoreDeps } from '../capability.js';
import { ChannelSecrets, findChannel } from '../channels/index.js';
import { findContact } from '../contacts/index.js';
import { findConversation, partFiles } from '../conversations/index.js';
import { bounceToken, domainOf, replyAddress, replyAddressKey, replyMessageId, replyToken } from './addresses.js';
import { recordDeliveryFailed, recordSent } from './email.commands.js';
import { messageIdsOf } from './email.read.js';
import { messageIdHash, normalizeId } from './mime.js';

interface PartEnvelope {
  type: string;
  payload: {
    conversation_id: string;
    part_id: string;
    channel_id: string;
    part_type: string;
    body: string | null;
    upload_ids?: string[];
    author?: { type: string; id: string };
  };
}

/**
 * What the delivery log (webhook_delivery_attempts, log lines) keeps of a relay's answer: the addresses it may
 * name taken out, since those rows are not erased with the contact. The whole answer is on the part, sealed.
 */
// A match starts only where a token does (the look-behind): tried at every character, the pattern was quadratic.
const withoutAddresses = (s: string) => s.replace(/(?<![^\s<>()"'])[^\s<>()"']+@[^\s<>()"']+/g, '<address>');

/** A display name or subject as one header line: no line breaks. */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();
const quoteName = (name: string) => `"${oneLine(name).replace(/["\\]/g, '')}"`;

/** Why a delivery sends no mail (its error, null when there is nothing to say), or null when it is mail to send. */
function nothingToSend(envelope: PartEnvelope): { error: string | null; permanent?: boolean } | null {
  // Only a teammate's comment is mail to send; an unsend cannot take back what a mailbox received.
  if (envelope.type !== 'conversation_part.created') return { error: null };
  // Its content was redacted or erased since: there is nothing left to send.
  if (envelope.payload.body === null) return { error: null };
  // An automation rule's reply: e-mail sends nothing automatically (an auto-responder answering it would set the
  // rule off again, and no chain of rules would see that loop). It stays in the conversation; the delivery says why.
  if (envelope.payload.author?.type === 'system')
    return { error: 'an e-mail channel sends no automatic reply: the comment stays in the conversation', permanent: true };
  return null;
}

export function emailTransport(deps: CoreDeps): DeliveryTransport {
  const secrets = new ChannelSecrets(deps.sealer);
  // Uploaded files go as MIME parts, when the uploads capability is mounted (it fills conversations' partFiles).
  const files = deps.additions.one(partFiles)?.(deps) ?? null;
  let relay: MailRelay | null = null;
  const relayOf = (): MailRelay | null =>
    deps.config.smtpRelayUrl ? (relay ??= smtpRelay(deps.config.smtpRelayUrl, { from: deps.config.mailFrom, timeoutMs: deps.config.webhookTimeoutMs })) : null;

  return async (delivery, body): Promise<SendResult> => {
    const started = Date.now();
    const done = (error: string | null, extra: Partial<SendResult> = {}): SendResult => ({ status: null, error, durationMs: Date.now() - started, ...extra });
    const envelope = JSON.parse(body) as PartEnvelope;
    const unsent = nothingToSend(envelope);
    if (unsent) return done(unsent.error, unsent.permanent ? { permanent: true } : {});
    // nothingToSend saw a body
    const p = envelope.payload as PartEnvelope['payload'] & { body: string };
    const tenantId = delivery.tenant_id;
    const ctx = () => ({ tenantId, now: deps.clock.now(), actor: { type: 'system' as const, id: 'email' }, requestId: randomUUID() });
    const fail = async (status: number | null, diagnostic: string): Promise<SendResult> => {
      await deps.scope.run(tenantId, () =>
        deps.shell.execute(
          ctx(),
          recordDeliveryFailed({ conversationId: p.conversation_id, partId: p.part_id, channelId: p.channel_id, reason: 'rejected', status, diagnostic }),
        ),
      );
      return done(`relay refused for good: ${withoutAddresses(diagnostic)}`, { status, permanent: true });
    };

    const found = await deps.scope.run(tenantId, async () => {
      const channel = await findChannel(deps.db, tenantId, p.channel_id);
      const conversation = await findConversation(deps.db, tenantId, p.conversation_id);
      const contact = conversation ? await findContact(deps.db, tenantId, { id: conversation.contact_id }) : null;
      const thread = await messageIdsOf(deps.db, tenantId, p.conversation_id);
      const dkim = channel ? await secrets.dkimKey(deps.db, tenantId, channel.id) : null;
      // A file gone since (its part redacted, its contact erased) is not sent; the body check above covers most.
      const opened = files ? await Promise.all((p.upload_ids ?? []).map((id) => files.open(deps.db, tenantId, id))) : [];
      const attachments = opened.flatMap((f) => (f ? [{ filename: f.name, contentType: f.content_type, content: f.content }] : []));
      return { channel, conversation, contact, thread, dkim, attachments };
    });
    const { channel, conversation, contact, thread, dkim, attachments } = found;
    if (!channel?.address || !conversation) return fail(null, 'the channel or the conversation no longer exists');
    const lastInbound = [...thread].reverse().find((m) => m.direction === 'in');
    // An unverified contact (a DMARC-failing sender, filed apart) has no e-mail: the reply goes where the message came from.
    const address = contact?.email ?? lastInbound?.from_address ?? null;
    if (!contact || !address || (contact as { erased?: boolean }).erased) return fail(null, 'the contact has no e-mail address');
    const send = relayOf();
    if (!send) return done('SMTP_RELAY_URL is not set: the reply waits for a relay');

    const mail = await replyMail(deps, {
      tenantId,
      p,
      body: p.body,
      channel: { ...channel, address: channel.address },
      conversation,
      thread,
      lastInbound,
      address,
      contactName: contact.name ?? null,
      dkim,
      attachments,
    });
    const { messageId, subject } = mail;
    try {
      const sent = await send.send(mail);
      await deps.scope.run(tenantId, () =>
        deps.shell.execute(
          ctx(),
          recordSent({
            conversationId: p.conversation_id,
            partId: p.part_id,
            channelId: p.channel_id,
            messageId,
            messageIdHash: messageIdHash(messageId),
            to: [{ address, name: contact.name ?? null }],
            subject,
            relayResponse: sent.response,
          }),
        ),
      );
      return done(null, { status: 250 });
    } catch (e) {
      if (e instanceof MailRefused) {
        if (e.permanent) return fail(e.code, e.message);
        return done(`relay answered ${e.code ?? 'nothing'}: ${withoutAddresses(e.message)}`, { status: e.code });
      }
      throw e;
    }
  };
}

/**
 * The reply as mail: threaded under the conversation's messages, Reply-To a reply address (a MAC names the
 * conversation), and a VERP return path naming this reply with a MAC (only a DSN sent there can mark it failed,
 * inbound.ts), DKIM-signed when the channel has a key.
 */
async function replyMail(
  deps: CoreDeps,
  r: {
    tenantId: string;
    p: PartEnvelope['payload'];
    body: string;
    channel: { id: string; name: string; address: string };
    conversation: { subject: string | null };
    thread: { message_id: string }[];
    lastInbound: { message_id: string } | undefined;
    address: string;
    contactName: string | null;
    dkim: { selector: string; privateKey: string } | null;
    attachments: NonNullable<MailMessage['attachments']>;
  },
) {
  const { tenantId, p, channel } = r;
  const messageId = replyMessageId(p.part_id, channel.address);
  const key = await replyAddressKey(deps.config);
  const token = replyToken(key, { tenantId, channelId: channel.id, conversationId: p.conversation_id });
  const returnPath = replyAddress(channel.address, bounceToken(key, { tenantId, channelId: channel.id, partId: p.part_id }));
  const ids = r.thread.map((m) => `<${normalizeId(m.message_id)}>`);
  const subjectBase = r.conversation.subject ? oneLine(r.conversation.subject) : 'Your conversation';
  const subject = /^re:/i.test(subjectBase) ? subjectBase : `Re: ${subjectBase}`;
  return {
    from: `${quoteName(channel.name)} <${channel.address}>`,
    to: r.contactName ? `${quoteName(r.contactName)} <${r.address}>` : r.address,
    subject,
    text: r.body,
    replyTo: replyAddress(channel.address, token),
    messageId,
    ...(r.lastInbound ? { inReplyTo: `<${normalizeId(r.lastInbound.message_id)}>` } : {}),
    ...(ids.length ? { references: ids.slice(-20) } : {}),
    // A teammate wrote it: not an auto-reply, whatever the customer's software assumes.
    headers: { 'Auto-Submitted': 'no' },
    envelope: { from: returnPath, to: r.address },
    ...(r.dkim ? { dkim: { domainName: domainOf(channel.address), keySelector: r.dkim.selector, privateKey: r.dkim.privateKey } } : {}),
    ...(r.attachments.length ? { attachments: r.attachments } : {}),
  };
}
