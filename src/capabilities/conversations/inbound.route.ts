// POST /api/channels/:id/inbound: a bridge posts a customer's message, signed
// with the channel's webhook_secret (spec 5.5). No API key is involved.
//
// A wrong content type, an unknown channel (malformed id, missing, another
// workspace's: the id alone names it) and a bad signature all get the same
// empty 401. All three run the same steps (one lookup, two HMACs, constant-time
// compares) before the verdict, so timing does not tell them apart either. So do
// a disabled channel (it has no verifying secret) and a replay: the signature
// covers the body and not x-service-timestamp, so the signatures of accepted
// posts are remembered (channel-secrets.ts) for twice the timestamp tolerance,
// in the transaction that files the post, and the same signature is refused
// whatever its timestamp, in every process.
import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { requestClient } from '../../api/command-context.js';
import { ResponseDoc, route, type Answer, type RouteDef } from '../../api/routes.js';
import { constant, errorListSchema, nullable, object, oneOfStrings, uuid } from '../../api/schemas.js';
import { assertStorable } from '../../api/text-guard.js';
import { bodyValidator } from '../../api/validation.js';
import { digestsEqual, hmacHex } from '../../platform/crypto/hmac.js';
import { AppError, BadRequest } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { CoreDeps } from '../capability.js';
import { ChannelSecrets } from '../channels/index.js';
import type { ContactInput } from '../contacts/index.js';
import type { Attachment } from './conversations.decider.js';
import { inboundMessage } from './conversations.commands.js';
import { findThread } from './conversations.read.js';
import { attachmentsSchema, contactSchema } from './schemas.js';

export const TIMESTAMP_TOLERANCE_S = 5 * 60;
/**
 * How long an accepted post's signature is remembered: a post accepted now may carry a timestamp up to the
 * tolerance ahead, and that timestamp stays acceptable for the tolerance after it. Past this, a replay needs a
 * rewritten timestamp, and finds its thread and message filed already (nothing new is filed).
 */
export const SIGNATURE_MEMORY_MS = 2 * TIMESTAMP_TOLERANCE_S * 1000;

/** Thrown inside the post's transaction when its signature was taken meanwhile: the post is undone, the answer is the 401. */
class Replayed extends Error {}
const DUMMY_SECRET = randomUUID();
const NO_CHANNEL = '00000000-0000-4000-8000-000000000000';

const InboundBody = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 255 }),
    message_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    contact: Type.Unsafe<ContactInput & { external_id: string }>({ ...contactSchema, required: ['external_id'] }),
    content: Type.String({ minLength: 1, maxLength: 65535 }),
    attachments: Type.Optional(Type.Unsafe<Attachment[]>(attachmentsSchema)),
    at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
const validate = bodyValidator<Static<typeof InboundBody>>(InboundBody);

const receiptSchema = object(
  { type: constant('inbound_receipt'), status: oneOfStrings(['conversation_created', 'part_added']), conversation_id: uuid, part_id: uuid, contact_id: uuid },
  { title: 'InboundReceipt' },
);
const duplicateSchema = object(
  { type: constant('inbound_receipt'), status: constant('duplicate'), conversation_id: nullable(uuid) },
  { title: 'InboundDuplicate' },
);

const unauthorized = (): Answer => ({ status: 401 });

export function inboundRoute(deps: CoreDeps): RouteDef {
  const { db, shell, clock, ids, sealer } = deps;
  const owner = deps.ownerDb ?? db; // the channel names the tenant: looked up as the owner role
  const channelSecrets = new ChannelSecrets(sealer);
  return route({
    method: 'post',
    path: '/channels/:id/inbound',
    permission: 'public',
    rawBody: true,
    rateClass: 'channel',
    summary: "Post a customer's message as the channel's bridge (signed)",
    body: InboundBody,
    responses: {
      201: new ResponseDoc("Filed: a new conversation (the thread's first post), or a new part (a follow-up with a new message_id).", receiptSchema),
      202: new ResponseDoc('Nothing filed: the thread exists and the post carries no new message_id.', duplicateSchema),
      401: new ResponseDoc(
        'No body when the content type is not application/json, the channel is unknown or the signature is wrong (the same empty answer for all three). Only a caller whose signature verifies gets a body: the error envelope (`stale_timestamp`, see `x-exceptional-content`) when the timestamp is more than 5 minutes off.',
        null,
        errorListSchema,
      ),
      409: errorListSchema,
      429: new ResponseDoc(
        "`rate_limited`: the channel's own limit (RATE_LIMIT_CHANNEL per RATE_LIMIT_WINDOW_SECONDS), counted once the signature and timestamp check out; `Retry-After` says when its window ends.",
        errorListSchema,
      ),
    },
    async handle({ params, req, ctx }) {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const jsonType = req.is('application/json') === 'application/json';
      const id = params.id ?? '';
      const now = clock.now();
      // One lookup for the channel and its secrets; a malformed id still costs it, like a well-formed one.
      const presented = req.get('x-service-signature') ?? '';
      const found = await channelSecrets.channelWithVerifying(owner, isUuid(id) ? id.toLowerCase() : NO_CHANNEL, now, presented);
      const channel = found?.channel;
      const secrets = found && sealer.canSeal('channel') ? found.secrets : [];
      let verified = false;
      for (const secret of [...secrets, DUMMY_SECRET, DUMMY_SECRET].slice(0, Math.max(2, secrets.length))) {
        // No short-circuit: every candidate is computed and compared.
        verified = digestsEqual(hmacHex(secret, raw), presented.toLowerCase()) && secrets.includes(secret) ? true : verified;
      }
      // A replay is refused before its timestamp is looked at: rewriting the header does not make it new.
      if (!jsonType || !channel || !verified || found.replayed) return unauthorized();
      channelSecrets.sweepSignatures(owner, now);

      // Past this point the caller holds the secret, so precise errors are safe to give.
      const ts = req.get('x-service-timestamp');
      if (!ts || !/^\d{1,12}$/.test(ts)) throw new BadRequest('invalid_timestamp', 'x-service-timestamp must be Unix time in seconds.', 'x-service-timestamp');
      if (Math.abs(now.getTime() / 1000 - Number(ts)) > TIMESTAMP_TOLERANCE_S) {
        throw new AppError(
          401,
          'stale_timestamp',
          'x-service-timestamp is more than 5 minutes from the service clock; check the bridge clock.',
          'x-service-timestamp',
        );
      }
      // The channel's own rate limit, only for a caller holding its secret (anyone else could drain the bridge's
      // budget with unsigned posts): every answer from here on carries its RateLimit fields, a refusal is 429.
      if (deps.rateLimits) {
        const fields = await deps.rateLimits.forChannel(channel.tenant_id, channel.id);
        for (const k in fields) req.res!.setHeader(k, fields[k]!);
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
      // The channel named the workspace: from here on the post acts as it, behind row-level security.
      return deps.scope.run(tenantId, async (): Promise<Answer> => {
        const remember = (on: Db) =>
          channelSecrets.rememberSignature(on, {
            tenantId,
            channelId: channel.id,
            signature: presented,
            until: new Date(now.getTime() + SIGNATURE_MEMORY_MS),
            now,
          });
        let remembered = false;
        const events = await shell
          .execute(
            {
              tenantId,
              now,
              actor: { type: 'channel', id: channel.id },
              requestId: ctx.requestId,
              // the bridge's address goes into the audit log sealed with the contact's key (audit-log.seal.ts)
              client: requestClient(req),
              // In the transaction that files the post: a twin that got past the check above waits for it, then loses.
              settle: async (tx) => {
                remembered = false;
                if (!(await remember(tx))) throw new Replayed();
                remembered = true;
              },
            },
            inboundMessage({
              channelId: channel.id,
              defaultTeamId: channel.default_team_id,
              conversationId: ids.uuid(),
              contactId: ids.uuid(),
              partId: ids.uuid(),
              externalId: body.external_id,
              messageId: body.message_id ?? null,
              contact: body.contact,
              content: body.content,
              attachments: body.attachments ?? [],
              at: body.at ?? now.toISOString(),
            }),
          )
          // A twin of this post committed first (its signature was taken): this one files nothing.
          .catch((e: unknown) => {
            if (e instanceof Replayed) return null;
            throw e;
          });
        if (!events) return unauthorized();
        // With EventStoreDB the append commits on its own and nothing settles: remembered right after instead.
        if (!remembered && !(await remember(db))) return unauthorized();
        const part = events.find((e) => e.type === 'conversation_part.created');
        if (!part || part.type !== 'conversation_part.created') {
          const existing = await findThread(db, tenantId, channel.id, body.external_id);
          return {
            status: 202,
            body: { type: 'inbound_receipt', status: 'duplicate', conversation_id: existing?.id ?? null } satisfies Static<typeof duplicateSchema>,
          };
        }
        return {
          status: 201,
          body: {
            type: 'inbound_receipt',
            status: events.some((e) => e.type === 'conversation.created') ? 'conversation_created' : 'part_added',
            conversation_id: part.aggregate_id,
            part_id: part.payload.part_id,
            contact_id: part.payload.author.id,
          } satisfies Static<typeof receiptSchema>,
        };
      });
    },
  });
}
