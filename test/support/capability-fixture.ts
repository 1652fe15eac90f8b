// What most capability e2e files start from, declared once: a service of the file's own (its own database), a
// workspace with its owner signed in, an API key with the scopes the file names, and an api channel; mocha's
// before and after hooks registered by the call. And a given/when/then helper for a request (as emmett's
// ApiSpecification): what is set up, the request, then its status, the fields of its body and the events it
// appended, read from the workspace's log.
import { expect } from 'chai';
import type { Clock } from '../../src/platform/clock.js';
import type { CapabilityModule } from '../../src/capabilities/capability.js';
import { Receiver } from '../webhooks/receiver.js';
import { createChannel } from './channels.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from './service.js';

/** What the fixture reads of a reply (the test client's Reply, or any with these). */
type Reply = { status: number; text: string; body: any };

export interface CapabilityFixture {
  readonly t: TestService;
  readonly owner: Member;
  /** the key's secret, with the scopes asked for */
  readonly key: string;
  readonly keyId: string;
  readonly channel: { id: string; secret: string };
  /** the webhook receiver, when the fixture was asked for one (`webhook`): an endpoint of the workspace posts to it */
  readonly receiver: Receiver;
  /** request options acting with the key */
  as(): { key: string };
  /** the reply's body, once its status is `status` (the body's text in the failure otherwise) */
  ok<T = any>(reply: Promise<Reply>, status?: number): Promise<T>;
  /** given (set up), when (one request), then (its status, fields of its body, the event types it appended, in order) */
  spec<T = any>(s: {
    given?: () => Promise<unknown>;
    when: () => Promise<Reply>;
    then: { status: number; body?: Record<string, unknown>; events?: readonly string[] };
  }): Promise<T>;
}

export function capabilityFixture(
  label: string,
  opts: {
    scopes: readonly string[];
    env?: Record<string, string | undefined>;
    clock?: Clock;
    extraModules?: CapabilityModule[];
    /** a receiver and a webhook endpoint of these event types posting to it (127.0.0.1 allowed for the service) */
    webhook?: { events: readonly string[] };
  },
): CapabilityFixture {
  let t: TestService | undefined;
  let owner: Member | undefined;
  let key: { id: string; secret: string } | undefined;
  let channel: { id: string; secret: string } | undefined;
  let receiver: Receiver | undefined;
  const ready = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error(`capabilityFixture(${label}): used before its before() hook ran`);
    return x;
  };
  before(async () => {
    const env = opts.webhook ? { WEBHOOK_ALLOWLIST: '127.0.0.1', ...opts.env } : opts.env;
    t = await startTestService(label, { env, clock: opts.clock, extraModules: opts.extraModules });
    owner = await newWorkspace(t);
    key = await mintKey(t, owner, [...opts.scopes]);
    channel = await createChannel(t, owner);
    if (opts.webhook) {
      receiver = await new Receiver().start();
      // The endpoint is the owner's (settings:write), whatever scopes the file's key holds.
      const ep = await t.client.post(
        '/api/webhooks',
        { url: receiver.url, event_names: [...opts.webhook.events] },
        { cookie: owner.cookie, workspace: owner.workspaceId },
      );
      expect(ep.status, ep.text).to.equal(201);
    }
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  const fixture: CapabilityFixture = {
    get t() {
      return ready(t);
    },
    get owner() {
      return ready(owner);
    },
    get key() {
      return ready(key).secret;
    },
    get keyId() {
      return ready(key).id;
    },
    get channel() {
      return ready(channel);
    },
    get receiver() {
      return ready(receiver);
    },
    as: () => ({ key: ready(key).secret }),
    async ok(reply, status = 200) {
      const r = await reply;
      expect(r.status, r.text).to.equal(status);
      return r.body;
    },
    async spec({ given, when, then }) {
      await given?.();
      const store = ready(t).service.deps.store;
      const tenantId = ready(owner).workspaceId;
      const before = await store.head(tenantId);
      const r = await when();
      expect(r.status, r.text).to.equal(then.status);
      if (then.body) expect(r.body, r.text).to.deep.include(then.body);
      if (then.events) {
        const appended = await store.readTenant(tenantId, before, 1000);
        expect(appended.map((e) => e.type)).to.deep.equal(then.events);
      }
      return r.body;
    },
  };
  return fixture;
}
