import { commandContext } from '../../api/command-context.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { Unprocessable } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { createChannel, normalizeSource, rotateChannelSecret, updateChannel } from './channels.commands.js';
import { channelList, channelSchema, channelsOf, findChannel, renderChannel, rotatedChannelSchema, type ChannelRow } from './channels.read.js';
import { ChannelSecrets } from './channel-secrets.js';

const httpUrl = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 };

export function channelsRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock, sealer, config } = deps;
  const secrets = new ChannelSecrets(sealer);
  const reload = async (tenantId: string, id: string) => renderChannel((await findChannel(db, tenantId, id))!);

  return [
    route<{ kind: 'api'; name: string; default_team_id: string | null; webhook_secret: string; source?: string; webhook_url?: string | null }>({
      method: 'post',
      path: '/channels',
      permission: 'settings:write',
      summary: 'Create an api channel',
      responses: { 201: channelSchema },
      body: {
        additionalProperties: false,
        required: ['kind', 'name', 'webhook_secret'],
        properties: {
          kind: { type: 'string', enum: ['api'] },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          source: { type: 'string', minLength: 1, maxLength: 200 },
          default_team_id: { type: ['string', 'null'], maxLength: 200 },
          webhook_secret: { type: 'string', minLength: 16, maxLength: 256 },
          webhook_url: { ...httpUrl, type: ['string', 'null'] },
        },
      },
      async handle(call) {
        const { principal, body } = call;
        // Replies are posted to webhook_url: it faces the webhook destination policy (and again at connect time).
        if (body.webhook_url) await deps.urlPolicy.requireAllowed(body.webhook_url, 'webhook_url');
        if (!sealer.canSeal('channel')) {
          throw new Unprocessable('channels_not_configured', 'This instance cannot create api channels: the operator must set SERVICE_CHANNELS_SECRET.');
        }
        const [created] = await shell.execute(
          commandContext(call, clock),
          createChannel(
            {
              channelId: call.write.ids.uuid(),
              kind: body.kind,
              name: body.name,
              source: normalizeSource(body.source ?? body.name),
              defaultTeamId: body.default_team_id ?? null,
              webhookUrl: body.webhook_url ?? null,
              secret: body.webhook_secret,
              secretId: call.write.ids.uuid(),
            },
            secrets,
          ),
        );
        return { status: 201, body: await reload(principal.tenantId, created!.aggregate_id) };
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

    route<{ name?: string; webhook_url?: string | null }>({
      method: 'put',
      path: '/channels/:id',
      permission: 'settings:write',
      summary: 'Change a channel\'s name or webhook_url',
      responses: { 200: channelSchema },
      body: {
        additionalProperties: false,
        minProperties: 1,
        properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, webhook_url: { ...httpUrl, type: ['string', 'null'] } },
      },
      async handle(call) {
        const { principal, params, body } = call;
        if (body.webhook_url) await deps.urlPolicy.requireAllowed(body.webhook_url, 'webhook_url');
        await shell.execute(commandContext(call, clock), updateChannel({ channelId: params.id!, name: body.name, webhookUrl: body.webhook_url }));
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route({
      method: 'post',
      path: '/channels/:id/rotate-secret',
      permission: 'settings:write',
      summary: 'Rotate a channel\'s webhook_secret',
      responses: { 200: rotatedChannelSchema },
      async handle(call) {
        const { principal, params } = call;
        const ctx = commandContext(call, clock);
        const { spec, secret, graceUntil } = rotateChannelSecret({ channelId: params.id!, graceSeconds: config.channelSecretGraceSeconds, now: ctx.now }, secrets, call.write.ids);
        await shell.execute(ctx, spec);
        // The new secret is returned this once; the old one verifies until previous_secret_valid_until.
        return { status: 200, body: { ...(await reload(principal.tenantId, params.id!)), webhook_secret: secret, previous_secret_valid_until: graceUntil.toISOString() } };
      },
    }),
  ];
}
