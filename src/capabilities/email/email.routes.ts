// The e-mail channel's HTTP routes: raw MIME posted by an MTA's pipe or a mail
// provider's forwarder (through the channels' signed door, like the api
// channel's inbound route, and filed through the same path as SMTP), a part's
// e-mail details, and the download of an attachment.
import { ResponseDoc, route, type Answer, type RouteDef } from '../../api/routes.js';
import { constant, nullable, object, oneOfStrings, uuid, ERROR } from '../../api/schemas.js';
import { AppError, BadRequest, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { signedChannelRoute } from '../channels/index.js';
import { findConversation } from '../conversations/index.js';
import { attachmentRow, emailMessageSchema, emailOfPart, renderEmail } from './email.read.js';
import { openAttachment, receiveEmail, TooComplex, Unreadable } from './inbound.js';
import { fileAnswer } from '../../api/download.js';

const receiptSchema = object(
  {
    type: constant('inbound_receipt'),
    status: oneOfStrings(['conversation_created', 'part_added']),
    conversation_id: uuid,
    part_id: uuid,
    contact_id: uuid,
  },
  { title: 'EmailReceipt' },
);
const notFiledSchema = object(
  { type: constant('inbound_receipt'), status: oneOfStrings(['duplicate', 'bounce', 'ignored']), conversation_id: nullable(uuid), part_id: nullable(uuid) },
  { title: 'EmailNotFiled' },
);

export function emailRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;

  return [
    signedChannelRoute<Buffer>(deps, {
      path: '/channels/:id/inbound/mime',
      mediaType: 'message/rfc822',
      kinds: ['email'],
      summary: 'Post a raw e-mail (message/rfc822) to an e-mail channel (signed)',
      responses: {
        201: new ResponseDoc('Filed: a new conversation, or a new part of the conversation it threads into.', receiptSchema),
        202: new ResponseDoc(
          'Nothing filed: a message already filed (`duplicate`, same Message-ID, or the same bytes accepted before), a bounce attached to the reply it bounced (`bounce`), or mail the channel does not file (`ignored`: its own mail, a report that is no failure).',
          notFiledSchema,
        ),
        400: ERROR,
        413: ERROR,
      },
      // The same bytes again: what the first post filed, without parsing them again.
      replayed: async (_post, first) => ({
        status: 202,
        body: { type: 'inbound_receipt', status: 'duplicate', conversation_id: first.conversationId, part_id: first.partId },
      }),
      async file({ channel, raw }) {
        if (raw.length === 0) throw new BadRequest('invalid_mime', 'The body is empty: post the message/rfc822 bytes.');
        let receipt;
        try {
          // The MTA's envelope is not known over HTTP: SPF reads the message's own top Received header.
          receipt = await receiveEmail(deps, channel, raw, { ip: null, helo: null, sender: null, recipient: channel.address ?? '' });
        } catch (e) {
          if (e instanceof Unreadable) throw new BadRequest('invalid_mime', 'The body is not a readable e-mail message.');
          if (e instanceof TooComplex)
            throw new AppError(413, 'mime_too_complex', 'The message could not be parsed within the time and memory budget, even as text only.');
          throw e;
        }
        const answer: Answer =
          receipt.status === 'conversation_created' || receipt.status === 'part_added'
            ? { status: 201, body: { type: 'inbound_receipt', ...receipt } }
            : { status: 202, body: { type: 'inbound_receipt', ...receipt } };
        return answer;
      },
    }),

    route({
      method: 'get',
      path: '/conversations/:id/parts/:part_id/email',
      permission: 'conversations:read',
      summary: "A part's e-mail: headers, sanitised HTML, quoted history, sender authentication, delivery",
      responses: { 200: emailMessageSchema, 404: ERROR },
      async handle({ principal, params }) {
        const row = await emailOfPart(db, principal.tenantId, params.part_id);
        if (!row || row.conversation_id !== params.id?.toLowerCase()) throw new NotFound('email_message');
        return { status: 200, body: renderEmail(row) };
      },
    }),

    route({
      method: 'get',
      path: '/conversations/:id/parts/:part_id/attachments/:index',
      permission: 'conversations:read',
      summary: 'Download an attachment of an e-mail part (as an attachment, never rendered)',
      responses: {
        200: new ResponseDoc(
          "The attachment's bytes, with its content type, `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`.",
          { type: 'string', format: 'binary' },
          null,
          'application/octet-stream',
        ),
        404: new ResponseDoc('No such attachment, or its content is gone (redacted, erased).', ERROR),
      },
      async handle({ principal, params }) {
        const tenantId = principal.tenantId;
        const index = /^\d{1,4}$/.test(params.index ?? '') ? Number(params.index) : -1;
        const conversation = await findConversation(db, tenantId, params.id);
        const row = conversation && index >= 0 ? await attachmentRow(db, tenantId, conversation.id, params.part_id, index) : undefined;
        const file = row ? await openAttachment(deps, tenantId, row.part_id, row.sealed) : null;
        if (!file) throw new NotFound('attachment');
        return fileAnswer(file, `attachment-${index}`);
      },
    }),
  ];
}
