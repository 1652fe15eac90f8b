import { randomBytes } from 'node:crypto';
import { commandContext } from '../../api/command-context.js';
import { applyKeyset, isoKey, listQuerySchema, parseCursor, toPage, type ListParams } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import { NotFound, Unprocessable } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { decideCreateChannel, decideRotateSecret, decideUpdateChannel } from './channels.decider.js';
import { channelList, channelView, findChannel, renderChannel, type ChannelRow } from './channels.read.js';
import { retireCurrentSecret, storeNewSecret } from './channel-secrets.js';

const httpUrl = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 };

/** "Source" of an `api` channel: the outside system its bridge connects, named by the caller or derived from the name. */
export const normalizeSource = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, '-');

export function channelRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock, ids, sealer, config } = deps;
  const reload = async (tenantId: string, id: string) => renderChannel((await findChannel(db, tenantId, id))!);

  return [
    route<{ kind: 'api'; name: string; default_team_id: string | null; webhook_secret: string; source?: string; webhook_url?: string | null }>({
      method: 'post',
      path: '/channels',
      permission: 'settings:write',
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
        const ctx = commandContext(call, clock);
        const channelId = ids.uuid();
        const source = normalizeSource(body.source ?? body.name);
        await shell.execute(ctx, {
          name: 'CreateChannel',
          load: async (tx) => ({ sourceTaken: !!(await tx('channels').where({ tenant_id: principal.tenantId, kind: body.kind, source }).first('id')) }),
          decide: (s) => [
            ...decideCreateChannel({ channelId, kind: body.kind, name: body.name, source, defaultTeamId: body.default_team_id ?? null }, s),
            ...(body.webhook_url ? decideUpdateChannel({ channelId, webhookUrl: body.webhook_url }, { id: channelId, name: body.name, webhookUrl: null }) : []),
          ],
          beside: (tx) => storeNewSecret(tx, sealer, { tenantId: principal.tenantId, channelId, id: ids.uuid(), secret: body.webhook_secret, now: ctx.now }),
        });
        return { status: 201, body: await reload(principal.tenantId, channelId) };
      },
    }),

    route<unknown, ListParams>({
      method: 'get',
      path: '/channels',
      permission: 'settings:read',
      query: listQuerySchema(channelList),
      async handle({ principal, query }) {
        const cursor = parseCursor(channelList, query);
        const rows = (await applyKeyset(db('channels').where({ tenant_id: principal.tenantId }), channelList, query, cursor)) as ChannelRow[];
        const key = query.sort === 'updated_at' ? (r: ChannelRow) => isoKey(r.updated_at) : (r: ChannelRow) => isoKey(r.created_at);
        return { status: 200, body: toPage(channelList, query, rows, key, (r) => r.id, renderChannel) };
      },
    }),

    route({
      method: 'get',
      path: '/channels/:id',
      permission: 'settings:read',
      async handle({ principal, params }) {
        const c = await findChannel(db, principal.tenantId, params.id!);
        if (!c) throw new NotFound('channel');
        return { status: 200, body: renderChannel(c) };
      },
    }),

    route<{ name?: string; webhook_url?: string | null }>({
      method: 'put',
      path: '/channels/:id',
      permission: 'settings:write',
      body: {
        additionalProperties: false,
        minProperties: 1,
        properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, webhook_url: { ...httpUrl, type: ['string', 'null'] } },
      },
      async handle(call) {
        const { principal, params, body } = call;
        if (body.webhook_url) await deps.urlPolicy.requireAllowed(body.webhook_url, 'webhook_url');
        await shell.execute(commandContext(call, clock), {
          name: 'UpdateChannel',
          load: async (tx) => channelView(await findChannel(tx, principal.tenantId, params.id!)),
          decide: (c) => decideUpdateChannel({ channelId: params.id!, name: body.name, webhookUrl: body.webhook_url }, c),
        });
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route({
      method: 'post',
      path: '/channels/:id/rotate-secret',
      permission: 'settings:write',
      async handle(call) {
        const { principal, params } = call;
        const ctx = commandContext(call, clock);
        const secret = `chsec_${randomBytes(32).toString('base64url')}`;
        const graceUntil = new Date(ctx.now.getTime() + config.channelSecretGraceSeconds * 1000);
        await shell.execute(ctx, {
          name: 'RotateChannelSecret',
          load: async (tx) => channelView(await findChannel(tx, principal.tenantId, params.id!)),
          decide: (c) => decideRotateSecret({ channelId: params.id!, previousValidUntil: graceUntil.toISOString() }, c),
          beside: async (tx) => {
            await retireCurrentSecret(tx, principal.tenantId, params.id!, graceUntil, ctx.now);
            await storeNewSecret(tx, sealer, { tenantId: principal.tenantId, channelId: params.id!, id: ids.uuid(), secret, now: ctx.now });
          },
        });
        // The new secret is returned this once; the old one verifies until previous_secret_valid_until.
        return { status: 200, body: { ...(await reload(principal.tenantId, params.id!)), webhook_secret: secret, previous_secret_valid_until: graceUntil.toISOString() } };
      },
    }),
  ];
}
