import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import type { TestService, Member } from './service.js';

export const CHANNEL_SECRET = 'bridge-secret-0123456789';

export async function createChannel(
  t: TestService,
  m: Member,
  opts: { name?: string; secret?: string; source?: string } = {},
): Promise<{ id: string; secret: string }> {
  const secret = opts.secret ?? CHANNEL_SECRET;
  const r = await t.client.post(
    '/api/channels',
    {
      kind: 'api',
      name: opts.name ?? `Bridge ${Math.random().toString(36).slice(2, 8)}`,
      default_team_id: null,
      webhook_secret: secret,
      ...(opts.source ? { source: opts.source } : {}),
    },
    { cookie: m.cookie, workspace: m.workspaceId },
  );
  expect(r.status, r.text).to.equal(201);
  return { id: r.body.id, secret };
}

/** An `email` channel at `address` whose raw MIME route is signed with `secret`; its id. */
export async function createEmailChannel(t: TestService, m: Member, o: { address: string; secret: string; name?: string }): Promise<string> {
  const r = await t.client.post(
    '/api/channels',
    { kind: 'email', name: o.name ?? 'Widgets', address: o.address, default_team_id: null, webhook_secret: o.secret },
    { cookie: m.cookie, workspace: m.workspaceId },
  );
  expect(r.status, r.text).to.equal(201);
  return r.body.id as string;
}

export const sign = (secret: string, raw: string) => createHmac('sha256', secret).update(raw).digest('hex');

export function inboundBody(over: Record<string, unknown> = {}) {
  return {
    external_id: `thread-${Math.random().toString(36).slice(2)}`,
    contact: { external_id: 'wa:+15550001', name: 'Grace Hopper', email: 'grace@example.com', phone: '+15550001' },
    content: 'Hello, my order has not arrived.',
    at: '2026-01-01T10:00:00Z',
    ...over,
  };
}

export interface SignedOptions {
  /** Unix seconds; the test service's clock by default */
  timestamp?: number;
  contentType?: string;
  /** a signature of the caller's (a forged one); the bytes signed with `secret` by default */
  signature?: string;
}

/** Posts `raw` to one of the routes a channel signs (spec 5.5): inbound, raw MIME, ratings. */
export function postSigned(t: TestService, path: string, secret: string, raw: string, opts: SignedOptions = {}) {
  const ts = opts.timestamp ?? Math.floor(t.clock.now().getTime() / 1000);
  return t.client.post(path, undefined, {
    raw,
    headers: {
      'content-type': opts.contentType ?? 'application/json',
      'x-service-signature': opts.signature ?? createHmac('sha256', secret).update(raw).digest('hex'),
      'x-service-timestamp': String(ts),
    },
  });
}

/** Posts a signed inbound message; `raw` lets a test send exact bytes. */
export function postInbound(t: TestService, channelId: string, secret: string, body: unknown, opts: SignedOptions & { raw?: string } = {}) {
  return postSigned(t, `/api/channels/${channelId}/inbound`, secret, opts.raw ?? JSON.stringify(body), opts);
}
