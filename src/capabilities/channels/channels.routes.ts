import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import type { Call, RouteDef } from '../../api/routes.js';
import type { Db } from '../../platform/db/database.js';
import { createPrivateKey } from 'node:crypto';
import { BadRequest, Unprocessable } from '../../platform/errors.js';
import { constant, object, uuid } from '../../api/schemas.js';
import type { CoreDeps } from '../capability.js';
import { createChannel, deleteChannel, normalizeSource, rotateChannelSecret, updateChannel } from './channels.commands.js';
import {
  channelByAddress,
  channelList,
  channelSchema,
  channelsOf,
  findChannel,
  renderChannel,
  rotatedChannelSchema,
  type ChannelRow,
} from './channels.read.js';
import { ChannelSecrets } from './channel-secrets.js';
import { addressTaken } from './channels.decider.js';
import { domainHolder, domainTaken } from '../email-domains/index.js';

const webhookUrl = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uri', pattern: '^https?://', maxLength: 2048 });

const NewChannel = Type.Object(
  {
    kind: Type.Unsafe<'api' | 'email'>({ type: 'string', enum: ['api', 'email'] }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    default_team_id: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 200 })),
    // Required for `api`; an `email` channel without one has its raw MIME route closed (every post is 401).
    webhook_secret: Type.Optional(Type.String({ minLength: 16, maxLength: 256 })),
    webhook_url: Type.Optional(webhookUrl),
    address: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: "An `email` channel's support address (required for `email`)." })),
    dkim: Type.Optional(
      Type.Object(
        {
          selector: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$' }),
          private_key: Type.String({ minLength: 1, maxLength: 16384, description: 'PEM (PKCS#8 or PKCS#1) RSA key; sealed, never shown again.' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const ChannelChanges = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    webhook_url: Type.Optional(webhookUrl),
    enabled: Type.Optional(
      Type.Boolean({
        description: 'false disables the channel: its signed routes answer the empty 401 and nothing is sent to its bridge; true enables it again.',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

const MAX_GRACE_SECONDS = 30 * 86_400;
const Rotation = Type.Object(
  {
    grace_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_GRACE_SECONDS,
        description: 'How long the secret being replaced keeps verifying (default CHANNEL_SECRET_GRACE_SECONDS); 0: it stops now.',
      }),
    ),
  },
  { additionalProperties: false },
);

const deletedChannelSchema = object({ type: constant('channel'), id: uuid, deleted: constant(true) }, { title: 'DeletedChannel' });

export function channelsRoutes(deps: CoreDeps): RouteDef[] {
  const { db, sealer, config } = deps;
  const secrets = new ChannelSecrets(sealer);
  const channelIn = async (tx: Db, call: Call, id: string) => renderChannel((await findChannel(tx, call.principal.tenantId, id))!);

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/channels',
      permission: 'settings:write',
      summary: 'Create a channel (an api bridge or an e-mail address)',
      body: NewChannel,
      command: ({ body, write }) =>
        createChannel(
          {
            channelId: write.ids.uuid(),
            kind: body.kind,
            name: body.name,
            // An e-mail channel's source is its address: one channel per address in the workspace.
            source: body.kind === 'email' ? body.address!.toLowerCase() : normalizeSource(body.source ?? body.name),
            defaultTeamId: body.default_team_id ?? null,
            webhookUrl: body.webhook_url ?? null,
            address: body.kind === 'email' ? body.address!.toLowerCase() : null,
            dkimSelector: body.kind === 'email' ? (body.dkim?.selector ?? null) : null,
            dkim: body.kind === 'email' && body.dkim ? { selector: body.dkim.selector, privateKey: body.dkim.private_key } : null,
            secret: body.webhook_secret ?? null,
            secretId: write.ids.uuid(),
            domainCheck: config.emailDomainVerification,
          },
          secrets,
        ),
      answer: { status: 201, schema: channelSchema, read: (tx, [created], call) => channelIn(tx, call, created!.aggregate_id) },
      before: async ({ body, principal }) => {
        // Replies are posted to webhook_url: it faces the webhook destination policy (and again at connect time).
        if (body.kind === 'api' && !body.webhook_secret)
          throw new BadRequest('webhook_secret_required', 'An api channel needs a webhook_secret.', 'webhook_secret');
        if (body.kind === 'email') {
          if (!body.address) throw new BadRequest('address_required', 'An email channel needs its support address.', 'address');
          if (body.webhook_url)
            throw new BadRequest('webhook_url_not_for_email', 'Replies on an email channel leave by SMTP: it takes no webhook_url.', 'webhook_url');
          if (body.dkim) {
            try {
              if (createPrivateKey(body.dkim.private_key).asymmetricKeyType !== 'rsa') throw new Error('not rsa');
            } catch {
              throw new BadRequest('invalid_dkim_key', 'dkim.private_key must be an RSA private key in PEM.', 'dkim.private_key');
            }
          }
          // The address names the workspace to the SMTP receiver: unique in the instance. This look-up across workspaces
          // answers the common case early; the command's claim (channel_addresses, a unique index) is the wall.
          if (await deps.scope.outside(() => channelByAddress(deps.ownerDb ?? db, body.address!))) throw addressTaken();
          // A domain another workspace verified is that workspace's (the command checks that this one verified it).
          if (config.emailDomainVerification) {
            const domain = body.address.slice(body.address.lastIndexOf('@') + 1).toLowerCase();
            const holder = await deps.scope.outside(() => domainHolder(deps.ownerDb ?? db, domain));
            if (holder && holder !== principal.tenantId) throw domainTaken(domain);
          }
        }
        if (body.webhook_url) await deps.urlPolicy.requireAllowed(body.webhook_url, 'webhook_url');
        if ((body.webhook_secret || body.dkim) && !sealer.canSeal('channel')) {
          throw new Unprocessable('channels_not_configured', 'This instance cannot create api channels: the operator must set SERVICE_CHANNELS_SECRET.');
        }
      },
    }),

    listRoute<ChannelRow>({
      path: '/channels',
      permission: 'settings:read',
      summary: 'List channels',
      item: channelSchema,
      spec: channelList,
      query: ({ principal }) => channelsOf(db, principal.tenantId),
      render: renderChannel,
    }),

    getRoute({
      path: '/channels/:id',
      permission: 'settings:read',
      summary: 'Get a channel',
      resource: channelSchema,
      what: 'channel',
      find: ({ principal, params }) => findChannel(db, principal.tenantId, params.id),
      render: renderChannel,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/channels/:id',
      permission: 'settings:write',
      summary: "Change a channel's name or webhook_url, or disable (enabled: false) and enable it",
      body: ChannelChanges,
      command: ({ params, body }) => updateChannel({ channelId: params.id, name: body.name, webhookUrl: body.webhook_url, enabled: body.enabled }),
      answer: { status: 200, schema: channelSchema, read: (tx, _events, call) => channelIn(tx, call, call.params.id) },
      before: async ({ body }) => {
        if (body.webhook_url) await deps.urlPolicy.requireAllowed(body.webhook_url, 'webhook_url');
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/channels/:id/rotate-secret',
      permission: 'settings:write',
      summary: "Rotate a channel's webhook_secret (the one replaced verifies for grace_seconds; earlier ones stop at once)",
      // No body is a body: the rotation with the configured grace.
      body: Rotation,
      command: ({ params, body, write }, now) => {
        const { spec, secret, graceUntil } = rotateChannelSecret(
          { channelId: params.id, graceSeconds: body.grace_seconds ?? config.channelSecretGraceSeconds, now },
          secrets,
          write.ids,
        );
        // The new secret is returned this once; the old one verifies until previous_secret_valid_until.
        return { spec, extra: { webhook_secret: secret, previous_secret_valid_until: graceUntil.toISOString() } };
      },
      answer: { status: 200, schema: rotatedChannelSchema, read: (tx, _events, call) => channelIn(tx, call, call.params.id) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/channels/:id',
      permission: 'settings:write',
      summary: 'Delete a channel (its conversations stay)',
      command: ({ params }) => deleteChannel({ channelId: params.id }, secrets),
      answer: {
        status: 200,
        schema: deletedChannelSchema,
        read: async (_tx, [deleted]) => ({ type: 'channel' as const, id: deleted!.aggregate_id, deleted: true as const }),
      },
    }),
  ];
}
