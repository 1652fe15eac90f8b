import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import type { Call, RouteDef } from '../../api/routes.js';
import type { Db } from '../../platform/db/database.js';
import { Unprocessable } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { createChannel, normalizeSource, rotateChannelSecret, updateChannel } from './channels.commands.js';
import { channelList, channelSchema, channelsOf, findChannel, renderChannel, rotatedChannelSchema, type ChannelRow } from './channels.read.js';
import { ChannelSecrets } from './channel-secrets.js';

const webhookUrl = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uri', pattern: '^https?://', maxLength: 2048 });

const NewChannel = Type.Object(
  {
    kind: Type.Unsafe<'api'>({ type: 'string', enum: ['api'] }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    default_team_id: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 200 })),
    webhook_secret: Type.String({ minLength: 16, maxLength: 256 }),
    webhook_url: Type.Optional(webhookUrl),
  },
  { additionalProperties: false },
);

const ChannelChanges = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), webhook_url: Type.Optional(webhookUrl) },
  { additionalProperties: false, minProperties: 1 },
);

export function channelsRoutes(deps: CoreDeps): RouteDef[] {
  const { db, sealer, config } = deps;
  const secrets = new ChannelSecrets(sealer);
  const channelIn = async (tx: Db, call: Call, id: string) => renderChannel((await findChannel(tx, call.principal.tenantId, id))!);

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/channels',
      permission: 'settings:write',
      summary: 'Create an api channel',
      body: NewChannel,
      command: ({ body, write }) =>
        createChannel(
          {
            channelId: write.ids.uuid(),
            kind: body.kind,
            name: body.name,
            source: normalizeSource(body.source ?? body.name),
            defaultTeamId: body.default_team_id ?? null,
            webhookUrl: body.webhook_url ?? null,
            secret: body.webhook_secret,
            secretId: write.ids.uuid(),
          },
          secrets,
        ),
      answer: { status: 201, schema: channelSchema, read: (tx, [created], call) => channelIn(tx, call, created!.aggregate_id) },
      before: async ({ body }) => {
        // Replies are posted to webhook_url: it faces the webhook destination policy (and again at connect time).
        if (body.webhook_url) await deps.urlPolicy.requireAllowed(body.webhook_url, 'webhook_url');
        if (!sealer.canSeal('channel')) {
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

    getRoute<ChannelRow>({
      path: '/channels/:id',
      permission: 'settings:read',
      summary: 'Get a channel',
      resource: channelSchema,
      what: 'channel',
      find: ({ principal, params }) => findChannel(db, principal.tenantId, params.id!),
      render: renderChannel,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/channels/:id',
      permission: 'settings:write',
      summary: "Change a channel's name or webhook_url",
      body: ChannelChanges,
      command: ({ params, body }) => updateChannel({ channelId: params.id!, name: body.name, webhookUrl: body.webhook_url }),
      answer: { status: 200, schema: channelSchema, read: (tx, _events, call) => channelIn(tx, call, call.params.id!) },
      before: async ({ body }) => {
        if (body.webhook_url) await deps.urlPolicy.requireAllowed(body.webhook_url, 'webhook_url');
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/channels/:id/rotate-secret',
      permission: 'settings:write',
      summary: "Rotate a channel's webhook_secret",
      command: ({ params, write }) => {
        const { spec, secret, graceUntil } = rotateChannelSecret(
          { channelId: params.id!, graceSeconds: config.channelSecretGraceSeconds, now: deps.clock.now() },
          secrets,
          write.ids,
        );
        // The new secret is returned this once; the old one verifies until previous_secret_valid_until.
        return { spec, extra: { webhook_secret: secret, previous_secret_valid_until: graceUntil.toISOString() } };
      },
      answer: { status: 200, schema: rotatedChannelSchema, read: (tx, _events, call) => channelIn(tx, call, call.params.id!) },
    }),
  ];
}
