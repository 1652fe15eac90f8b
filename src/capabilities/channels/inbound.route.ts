// POST /api/channels/:id/inbound: a bridge posts a customer's message, signed
// with the channel's webhook_secret (spec 5.5). No API key is involved.
//
// A wrong content type, an unknown channel (malformed id, missing, another
// workspace's: the id alone names it) and a bad signature all get the same
// empty 401. All three run the same steps (one lookup, two HMACs, constant-time
// compares) before the verdict, so timing does not tell them apart either.
import { randomUUID } from 'node:crypto';
import { route, type Answer, type RouteDef } from '../../api/routes.js';
import { assertStorable } from '../../api/text-guard.js';
import { bodyValidator } from '../../api/validation.js';
import { digestsEqual, hmacHex } from '../../platform/crypto/hmac.js';
import { AppError, BadRequest } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { CoreDeps } from '../capability.js';
import type { ContactInput } from '../contacts/contacts.decider.js';
import { findContact } from '../contacts/contacts.read.js';
import { decideInbound, type Attachment } from '../conversations/conversations.decider.js';
import { attachmentsSchema, contactSchema } from '../conversations/schemas.js';
import { verifyingSecrets } from './channel-secrets.js';

export const TIMESTAMP_TOLERANCE_S = 5 * 60;
const DUMMY_SECRET = randomUUID();
const NO_CHANNEL = '00000000-0000-4000-8000-000000000000';

interface InboundBody {
  external_id: string;
  message_id?: string;
  contact: ContactInput & { external_id: string };
  content: string;
  attachments?: Attachment[];
  at?: string;
}

const validate = bodyValidator<InboundBody>({
  additionalProperties: false,
  required: ['external_id', 'contact', 'content'],
  properties: {
    external_id: { type: 'string', minLength: 1, maxLength: 255 },
    message_id: { type: 'string', minLength: 1, maxLength: 255 },
    contact: { ...contactSchema, required: ['external_id'] },
    content: { type: 'string', minLength: 1, maxLength: 65535 },
    attachments: attachmentsSchema,
    at: { type: 'string', format: 'date-time' },
  },
});

const unauthorized = (): Answer => ({ status: 401 });

export function inboundRoute(deps: CoreDeps): RouteDef {
  const { db, shell, clock, ids, sealer } = deps;
  return route({
    method: 'post',
    path: '/channels/:id/inbound',
    permission: 'public',
    rawBody: true,
    async handle({ params, req, ctx }) {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const jsonType = req.is('application/json') === 'application/json';
      const id = params.id ?? '';
      const channel = await db('channels').where({ id: isUuid(id) ? id.toLowerCase() : NO_CHANNEL }).first('tenant_id', 'id', 'default_team_id');
      const now = clock.now();
      const secrets = channel && sealer.canSeal('channel') ? await verifyingSecrets(db, sealer, channel.tenant_id, channel.id, now) : [];
      const presented = req.get('x-service-signature') ?? '';
      let verified = false;
      for (const secret of [...secrets, DUMMY_SECRET, DUMMY_SECRET].slice(0, Math.max(2, secrets.length))) {
        // No short-circuit: every candidate is computed and compared.
        verified = digestsEqual(hmacHex(secret, raw), presented.toLowerCase()) && secrets.includes(secret) ? true : verified;
      }
      if (!jsonType || !channel || !verified) return unauthorized();

      // Past this point the caller holds the secret, so precise errors are safe to give.
      const ts = req.get('x-service-timestamp');
      if (!ts || !/^\d{1,12}$/.test(ts)) throw new BadRequest('invalid_timestamp', 'x-service-timestamp must be Unix time in seconds.', 'x-service-timestamp');
      if (Math.abs(now.getTime() / 1000 - Number(ts)) > TIMESTAMP_TOLERANCE_S) {
        throw new AppError(401, 'stale_timestamp', 'x-service-timestamp is more than 5 minutes from the service clock; check the bridge clock.', 'x-service-timestamp');
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new BadRequest('invalid_json', 'The request body is not valid JSON.');
      }
      assertStorable(parsed); // the edge's text check, as on every JSON route
      const body = validate(parsed);
      const tenantId: string = channel.tenant_id;
      const conversationId = ids.uuid();
      const events = await shell.execute(
        { tenantId, now, actor: { type: 'channel', id: channel.id }, requestId: ctx.requestId },
        {
          name: 'InboundMessage',
          load: async (tx) => {
            const thread = await tx('conversations').where({ tenant_id: tenantId, channel_id: channel.id, external_id: body.external_id }).first('id', 'state', 'channel_id', 'assignee_id', 'team_id');
            const messageFiled =
              !!thread && !!body.message_id && !!(await tx('conversation_parts').where({ tenant_id: tenantId, conversation_id: thread.id, external_id: body.message_id }).first('id'));
            return {
              thread: thread ? { id: thread.id, channelId: thread.channel_id, state: thread.state, assigneeId: thread.assignee_id, teamId: thread.team_id } : null,
              messageFiled,
              contact: await findContact(tx, tenantId, body.contact),
            };
          },
          decide: (s) =>
            decideInbound(
              {
                channelId: channel.id,
                defaultTeamId: channel.default_team_id,
                conversationId,
                contactId: ids.uuid(),
                partId: ids.uuid(),
                externalId: body.external_id,
                messageId: body.message_id ?? null,
                contact: body.contact,
                content: body.content,
                attachments: body.attachments ?? [],
                at: body.at ?? now.toISOString(),
              },
              s,
            ),
        },
      );
      const part = events.find((e) => e.type === 'conversation_part.created');
      if (!part) {
        const existing = await db('conversations').where({ tenant_id: tenantId, channel_id: channel.id, external_id: body.external_id }).first('id');
        return { status: 202, body: { type: 'inbound_receipt', status: 'duplicate', conversation_id: existing?.id ?? null } };
      }
      return {
        status: 201,
        body: {
          type: 'inbound_receipt',
          status: events.some((e) => e.type === 'conversation.created') ? 'conversation_created' : 'part_added',
          conversation_id: part.aggregate_id,
          part_id: part.payload.part_id,
          contact_id: (part.payload.author as { id: string }).id,
        },
      };
    },
  });
}
