// `npm run demo`: seeds a demo workspace on a running service, through its
// public API, and starts a webhook receiver that prints what it is sent.
//
//   the owner       the CLI's `workspace create` (needs the service's database: the same DATA_DIR or DATABASE_URL)
//   agents          invited and accepted through the API, then signed in
//   a channel       an `api` channel (the service needs SERVICE_CHANNELS_SECRET) whose replies go to the receiver
//   a mail channel  an `email` channel at support@demo.example (mail reaches it when the service has SMTP_PORT)
//   a webhook       an endpoint for every event, pointed at a receiver on 127.0.0.1 that verifies signatures
//                   (the service needs WEBHOOK_ALLOWLIST=127.0.0.1 to post to loopback)
//   conversations   200 with their contacts: a quarter posted by the bridge (signed inbound), the rest started by
//                   agents, with replies, notes, assignments, closes, snoozes and priorities
//   attributes      two typed conversation attributes (category, a list; order_ref, a string) and their values
//   ratings         a CSAT rating of each closed conversation (the bridge's threads through its signed ratings route)
//   an SLA breach   a policy with a 5-second first-response target (urgent, subject by a filter-language query) and a
//                   conversation nobody answers: the worker's conversation.sla_breached event is waited for and shown
//
// Idempotent: running it again finds what is there (by e-mail, name, subject, thread id and part text) and adds only
// what is missing; writes carry Idempotency-Keys. The key is found by name and rotated (its secret is shown once).
//
//   DEMO_URL            the service (default http://127.0.0.1:3000)
//   DEMO_RECEIVER_PORT  the receiver's port (default 4000; 0: any free port)
//   DEMO_CONVERSATIONS  how many conversations to seed (default 200; the tests seed fewer)
//   --exit              do not keep the receiver running: wait for the first deliveries, print, exit
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASE = (process.env.DEMO_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const RECEIVER_PORT = Number(process.env.DEMO_RECEIVER_PORT ?? 4000);
const EXIT = process.argv.includes('--exit');
const CONVERSATIONS = Math.max(1, Number(process.env.DEMO_CONVERSATIONS ?? 200) || 200);
const CONCURRENCY = 6;

const WORKSPACE = 'Demo Help Desk';
const OWNER = { email: 'ada@demo.example', password: 'demo password 123', name: 'Ada Lovelace' };
const AGENTS = [
  { email: 'grace@demo.example', name: 'Grace Hopper', role: 'agent' },
  { email: 'linus@demo.example', name: 'Linus Torvalds', role: 'agent' },
  { email: 'margaret@demo.example', name: 'Margaret Hamilton', role: 'admin' },
];
const AGENT_PASSWORD = 'demo agent password';
const CHANNEL = { name: 'Demo bridge', secret: 'demo-bridge-secret-0123456789' };
/** An e-mail channel: mail to its address (SMTP_PORT on the service) opens conversations; teammates' replies leave by SMTP_RELAY_URL. */
const MAIL_CHANNEL = { name: 'Demo mail', address: 'support@demo.example' };
const ENDPOINT_DESCRIPTION = 'demo receiver (npm run demo)';
const KEY_NAME = 'demo';
const KEY_SCOPES = ['conversations:read', 'conversations:write', 'contacts:read', 'events:read', 'settings:read', 'settings:write', 'members:read'];

const FIRST = ['Alan', 'Barbara', 'Claude', 'Dorothy', 'Edsger', 'Frances', 'Gordon', 'Hedy'];
const LAST = ['Turing', 'Liskov', 'Shannon', 'Vaughan', 'Dijkstra', 'Allen', 'Moore', 'Lamarr'];
const TOPICS = [
  'Where is my order?',
  'Refund for a damaged item',
  'Cannot sign in',
  'Change my delivery address',
  'Invoice needed',
  'The app crashes on start',
  'Upgrade my plan',
  'Cancel my subscription',
];

/** The category (a `list` attribute's option) of each topic above. */
const CATEGORIES = ['shipping', 'billing', 'account', 'shipping', 'billing', 'bug', 'billing', 'billing'];
const OPTIONS = ['account', 'billing', 'bug', 'shipping'];
/** A rating of each closed conversation: mostly content, a few not. */
const SCORES = [5, 4, 5, 3, 5, 2, 4, 1];

const log = (m: string) => console.error(`[demo] ${m}`);

// ---- HTTP ----

interface Auth {
  key?: string;
  cookie?: string;
  workspace?: string;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
    what: string,
  ) {
    super(`${what}: ${status} ${JSON.stringify(body)}`);
  }
  get code(): string | undefined {
    return this.body?.errors?.[0]?.code;
  }
}

async function api(
  method: string,
  p: string,
  o: Auth & { body?: unknown; idempotencyKey?: string; raw?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.cookie) headers.cookie = o.cookie;
  if (o.workspace) headers['x-service-workspace'] = o.workspace;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  const payload = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${BASE}${p}`, { method, headers, body: payload });
    const text = await res.text();
    const body = text ? JSON.parse(text) : undefined;
    // A retried write whose first attempt is still running: wait and resend the same request.
    if (res.status === 409 && body?.errors?.[0]?.code === 'idempotency_key_in_flight' && attempt < 20) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    if (res.status >= 400) throw new ApiError(res.status, body, `${method} ${p}`);
    return { status: res.status, body, headers: res.headers };
  }
}

async function all<T>(p: string, auth: Auth): Promise<T[]> {
  const out: T[] = [];
  let after: string | null = null;
  do {
    const sep = p.includes('?') ? '&' : '?';
    const page: { body: { data: T[]; pages: { next: { starting_after: string } | null } } } = await api(
      'GET',
      `${p}${sep}per_page=150${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`,
      auth,
    );
    out.push(...page.body.data);
    after = page.body.pages.next?.starting_after ?? null;
  } while (after);
  return out;
}

async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

// ---- the owner, through the CLI ----

function cli(args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`cli ${args[0]} ${args[1]} exited ${code}: ${err.trim()}`)),
    );
  });
}

async function signIn(email: string, password: string): Promise<{ cookie: string; workspaces: { id: string; name: string; member_id: string }[] } | null> {
  try {
    const r = await api('POST', '/api/session', { body: { email, password } });
    return { cookie: (r.headers.get('set-cookie') ?? '').split(';')[0]!, workspaces: r.body.workspaces };
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

async function ownerSession(): Promise<{ cookie: string; workspaceId: string; created: boolean }> {
  const found = (await signIn(OWNER.email, OWNER.password))?.workspaces.find((w) => w.name === WORKSPACE);
  let created = false;
  if (!found) {
    log(`creating the workspace "${WORKSPACE}" and its owner with the CLI (npm run -s cli -- workspace create)`);
    await cli(['workspace', 'create', '--name', WORKSPACE, '--owner-email', OWNER.email, '--owner-password', OWNER.password, '--owner-name', OWNER.name]);
    created = true;
  }
  const s = await signIn(OWNER.email, OWNER.password);
  const ws = s?.workspaces.find((w) => w.name === WORKSPACE);
  if (!s || !ws)
    throw new Error(
      'signed in as the demo owner but the demo workspace is not there: does the CLI use the same database as the service (DATA_DIR / DATABASE_URL)?',
    );
  return { cookie: s.cookie, workspaceId: ws.id, created };
}

// ---- the receiver ----

interface ReceiverState {
  url: string;
  secrets: Map<string, string>;
  received: number;
  verified: number;
  byType: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<ReceiverState> {
  const state = { secrets: new Map<string, string>(), received: 0, verified: 0, byType: new Map<string, number>() } as ReceiverState;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const secret = state.secrets.get(req.url ?? '');
      const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
      const expected = secret ? Buffer.from(createHmac('sha256', secret).update(raw).digest('hex')) : null;
      const ok = expected !== null && given.length === expected.length && timingSafeEqual(given, expected);
      res.writeHead(ok ? 200 : 401).end();
      if (!ok) return;
      state.received++;
      state.verified++;
      const type = (JSON.parse(raw.toString('utf8')) as { type: string }).type;
      state.byType.set(`${req.url} ${type}`, (state.byType.get(`${req.url} ${type}`) ?? 0) + 1);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(RECEIVER_PORT, '127.0.0.1', resolve);
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

// ---- the plan: what each demo conversation holds ----

interface PartPlan {
  kind: 'reply' | 'parts';
  body: Record<string, unknown>;
  /** index into AGENTS of the agent who writes it */
  by: number;
}

const tag = (i: number, k: number) => `[demo ${i}.${k}]`;

function plan(i: number, agentIds: string[]): PartPlan[] {
  const by = i % AGENTS.length;
  const parts: PartPlan[] = [];
  if (i % 3 === 0)
    parts.push({ kind: 'parts', by, body: { message_type: 'assignment', assignee_id: agentIds[by], body: `Taking this one. ${tag(i, parts.length)}` } });
  if (i % 6 === 1)
    parts.push({
      kind: 'parts',
      by,
      body: { message_type: 'priority', priority: i % 12 === 1 ? 'urgent' : 'high', body: `Raising the priority. ${tag(i, parts.length)}` },
    });
  parts.push({ kind: 'reply', by, body: { message_type: 'comment', body: `Thanks for writing in, we are on it. ${tag(i, parts.length)}` } });
  if (i % 2 === 0) parts.push({ kind: 'reply', by, body: { message_type: 'note', body: `Internal: checked the order history. ${tag(i, parts.length)}` } });
  if (i % 5 === 0) parts.push({ kind: 'parts', by, body: { message_type: 'close', body: `Solved. ${tag(i, parts.length)}` } });
  else if (i % 7 === 0)
    parts.push({
      kind: 'parts',
      by,
      body: {
        message_type: 'snoozed',
        snoozed_until: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        body: `Waiting for the customer. ${tag(i, parts.length)}`,
      },
    });
  return parts;
}

const contactOf = (i: number) => {
  const n = i % 40;
  const first = FIRST[n % FIRST.length]!;
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
  return { external_id: `demo-contact-${n}`, name: `${first} ${last}`, email: `${first}.${last}.${n}@customer.example`.toLowerCase() };
};

/**
 * Team "Tier 1" (round robin) with the agents online, a channel whose conversations land in it, and one conversation
 * started there without an assignee: routing assigns it in the same command (its part says `assigned_by`). Found by
 * name and subject on a second run, which appends nothing (the same roster, rule and availability change nothing).
 */
async function routeDemo(
  o: Auth,
  agents: { role: string; cookie: string; memberId: string; name: string }[],
  contact: Record<string, string>,
  counts: { conversations: number },
): Promise<{ team: string; assignee: string | null }> {
  const tier1 = agents.filter((a) => a.role === 'agent');
  let team = ((await api('GET', '/api/teams', o)).body.data as { id: string; name: string }[]).find((t) => t.name === 'Tier 1');
  team ??= (await api('POST', '/api/teams', { ...o, body: { name: 'Tier 1' }, idempotencyKey: 'demo-team-tier-1' })).body as { id: string; name: string };
  await api('PUT', `/api/teams/${team.id}/members`, { ...o, body: { member_ids: tier1.map((a) => a.memberId) } });
  await api('PUT', `/api/teams/${team.id}`, { ...o, body: { assignment: 'round_robin' } });
  for (const a of tier1) await api('PUT', '/api/me/availability', { cookie: a.cookie, workspace: o.workspace!, body: { status: 'online' } });
  let channel = (await all<{ id: string; name: string }>('/api/channels', o)).find((c) => c.name === 'Demo Tier 1 bridge');
  channel ??= (
    await api('POST', '/api/channels', {
      ...o,
      body: { kind: 'api', name: 'Demo Tier 1 bridge', default_team_id: team.id, webhook_secret: CHANNEL.secret },
      idempotencyKey: 'demo-channel-tier-1',
    })
  ).body as { id: string; name: string };
  const subject = 'Demo routed: which plan fits us?';
  let conv = (await all<{ subject: string | null; assignee_id: string | null }>(`/api/conversations?channel_id=${channel.id}`, o)).find(
    (c) => c.subject === subject,
  );
  if (!conv) {
    const body = { channel_id: channel.id, subject, body: 'Happy to help you choose a plan.', contact };
    conv = (await api('POST', '/api/conversations', { ...o, body, idempotencyKey: 'demo-conversation-routed' })).body as {
      subject: string;
      assignee_id: string | null;
    };
    counts.conversations++;
  }
  const assigneeId = conv.assignee_id;
  const assignee = agents.find((a) => a.memberId === assigneeId)?.name ?? null;
  log(`team Tier 1 (round robin, ${tier1.map((a) => a.name).join(' and ')} online): "${subject}" routed to ${assignee ?? 'nobody'}`);
  return { team: team.id, assignee };
}

/**
 * An SLA breach: a policy with a 5-second first-response target for urgent conversations whose subject starts with
 * "Demo SLA" (its match holds a filter-language query, so the other demo conversations stay out of it), and one such
 * conversation nobody answers. The SLA worker appends `conversation.sla_breached` at the deadline; the demo waits for
 * it (bounded) and shows the event and the conversation's `sla`. Found by name and subject on a second run.
 */
async function slaDemo(k: Auth, channelId: string, contact: Record<string, string>, counts: { conversations: number }): Promise<SlaShown> {
  const name = 'Demo: urgent "Demo SLA" conversations, 5-second first response';
  let policy = ((await api('GET', '/api/sla_policies', k)).body.data as { id: string; name: string }[]).find((p) => p.name === name);
  policy ??= (
    await api('POST', '/api/sla_policies', {
      ...k,
      body: {
        name,
        match: { priority: ['urgent'], query: { field: 'subject', operator: '^', value: 'Demo SLA' } },
        first_response_target_seconds: 5,
        resolution_target_seconds: 3600,
      },
      idempotencyKey: 'demo-sla-policy',
    })
  ).body as { id: string; name: string };
  const subject = 'Demo SLA: nobody has answered me yet';
  let conv = (await all<{ id: string; subject: string | null }>(`/api/conversations?channel_id=${channelId}&priority=urgent`, k)).find(
    (c) => c.subject === subject,
  );
  if (!conv) {
    const body = { channel_id: channelId, subject, body: 'We will get back to you shortly.', priority: 'urgent', contact };
    conv = (await api('POST', '/api/conversations', { ...k, body, idempotencyKey: 'demo-conversation-sla' })).body as { id: string; subject: string };
    counts.conversations++;
  }
  // The worker polls every second: the breach lands about 5 s after the conversation was created.
  const until = Date.now() + 30_000;
  let sla: { breaches: { target: string; due_at: string; breached_at: string }[] } | null = null;
  while (Date.now() < until) {
    sla = (await api('GET', `/api/conversations/${conv.id}`, k)).body.sla;
    if (sla?.breaches.length) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const events = (await api('GET', '/api/events?per_page=100&types=conversation.sla_breached', k)).body.data as {
    seq: number;
    aggregate_id: string;
    created_at: string;
    payload: { target: string; due_at: string };
  }[];
  const event = events.find((e) => e.aggregate_id === conv.id) ?? null;
  if (event)
    log(
      `SLA: "${subject}" breached ${event.payload.target} (event seq ${event.seq}, appended ${new Date(event.created_at).getTime() - new Date(event.payload.due_at).getTime()} ms after its deadline ${event.payload.due_at})`,
    );
  else log(`SLA: no breach of "${subject}" within 30 s (is the service's SLA worker running?)`);
  return { policy: policy.id, conversation: conv.id, breach: event };
}

interface SlaShown {
  policy: string;
  conversation: string;
  breach: { seq: number; created_at: string; payload: { target: string; due_at: string } } | null;
}

// ---- main ----

async function main(): Promise<void> {
  const ready = await fetch(`${BASE}/readyz`).catch(() => null);
  if (!ready?.ok) throw new Error(`the service does not answer at ${BASE}/readyz: start it first (npm start), or set DEMO_URL`);

  const owner = await ownerSession();
  const o: Auth = { cookie: owner.cookie, workspace: owner.workspaceId };
  log(`workspace ${owner.workspaceId}${owner.created ? ' (created)' : ' (found)'}`);

  // The API key: found by name and rotated (a secret is shown only once), else minted.
  const keys = await all<{ id: string; name: string; status: string }>('/api/keys', o);
  const existingKey = keys.find((k) => k.name === KEY_NAME && k.status === 'active');
  const key: string = existingKey
    ? (await api('POST', `/api/keys/${existingKey.id}/rotate`, o)).body.secret
    : (await api('POST', '/api/keys', { ...o, body: { name: KEY_NAME, scopes: KEY_SCOPES }, idempotencyKey: 'demo-key' })).body.secret;
  const k: Auth = { key };

  // Agents: invited and accepted when missing, then signed in.
  const members = await all<{ id: string; email: string; role: string }>('/api/members', k);
  for (const a of AGENTS) {
    if (members.some((m) => m.email === a.email)) continue;
    const inv = await api('POST', '/api/members/invites', { ...o, body: { email: a.email, role: a.role }, idempotencyKey: `demo-invite-${a.email}` });
    await api('POST', '/api/invites/accept', { body: { token: inv.body.token, name: a.name, password: AGENT_PASSWORD } });
    log(`invited and joined: ${a.email} (${a.role})`);
  }
  const agents = await Promise.all(
    AGENTS.map(async (a) => {
      const s = await signIn(a.email, AGENT_PASSWORD);
      if (!s) throw new Error(`cannot sign in as ${a.email}`);
      return { ...a, cookie: s.cookie, memberId: s.workspaces.find((w) => w.id === owner.workspaceId)!.member_id };
    }),
  );

  // The receiver, the webhook endpoint (recreated: its secret is shown only at creation) and the channel.
  const receiver = await startReceiver();
  let webhooks = true;
  for (const ep of await all<{ id: string; description: string }>('/api/webhooks', k)) {
    if (ep.description === ENDPOINT_DESCRIPTION) await api('DELETE', `/api/webhooks/${ep.id}`, k);
  }
  try {
    const ep = await api('POST', '/api/webhooks', { ...k, body: { url: `${receiver.url}/hooks`, event_names: [], description: ENDPOINT_DESCRIPTION } });
    receiver.secrets.set('/hooks', ep.body.secret);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 400)) throw e;
    webhooks = false;
    log(`the service refuses a webhook to ${receiver.url} (${e.code}): start it with WEBHOOK_ALLOWLIST=127.0.0.1 to see deliveries`);
  }
  let channel = (await all<{ id: string; name: string }>('/api/channels', k)).find((c) => c.name === CHANNEL.name);
  if (!channel) {
    try {
      channel = (
        await api('POST', '/api/channels', {
          ...k,
          body: { kind: 'api', name: CHANNEL.name, default_team_id: null, webhook_secret: CHANNEL.secret },
          idempotencyKey: 'demo-channel',
        })
      ).body;
    } catch (e) {
      if (e instanceof ApiError && e.code === 'channels_not_configured')
        throw new Error('the service cannot create api channels: start it with SERVICE_CHANNELS_SECRET (at least 32 characters)');
      throw e;
    }
  }
  const channelId = channel!.id;
  receiver.secrets.set('/bridge', CHANNEL.secret);
  if (webhooks) await api('PUT', `/api/channels/${channelId}`, { ...k, body: { webhook_url: `${receiver.url}/bridge` } });
  // The e-mail channel, found by name (its address is unique in the instance: another workspace may hold it).
  // Its domain must be one the workspace verified, unless the service runs with EMAIL_DOMAIN_VERIFICATION=off (as
  // the README starts it for the demo): demo.example is nobody's to verify, so without that the demo goes on
  // without an e-mail channel and says how to get one.
  let mailChannel = (await all<{ name: string }>('/api/channels', k)).some((c) => c.name === MAIL_CHANNEL.name);
  if (!mailChannel) {
    mailChannel = await api('POST', '/api/channels', {
      ...k,
      body: { kind: 'email', name: MAIL_CHANNEL.name, address: MAIL_CHANNEL.address, default_team_id: null },
      idempotencyKey: 'demo-mail-channel',
    }).then(
      () => true,
      (e: unknown) => {
        if (e instanceof ApiError && e.code === 'channel_address_taken') {
          log(`another workspace receives mail at ${MAIL_CHANNEL.address}: the demo has no e-mail channel`);
          return false;
        }
        if (e instanceof ApiError && (e.code === 'domain_not_verified' || e.code === 'domain_taken')) {
          log(
            `the service wants ${MAIL_CHANNEL.address.split('@')[1]} verified by the workspace (${e.code}): the demo has no e-mail channel. ` +
              'Start the service with EMAIL_DOMAIN_VERIFICATION=off for one, or verify a domain of yours (POST /api/email_domains).',
          );
          return false;
        }
        throw e;
      },
    );
  }

  // Conversation attributes, defined when missing (found by name).
  const defined = new Set(((await api('GET', '/api/conversation_attributes', k)).body.data as { name: string }[]).map((d) => d.name));
  if (!defined.has('category'))
    await api('POST', '/api/conversation_attributes', {
      ...k,
      body: { name: 'category', data_type: 'list', options: OPTIONS, description: 'What the request is about' },
      idempotencyKey: 'demo-attribute-category',
    });
  if (!defined.has('order_ref'))
    await api('POST', '/api/conversation_attributes', {
      ...k,
      body: { name: 'order_ref', data_type: 'string', description: "The customer's order number" },
      idempotencyKey: 'demo-attribute-order-ref',
    });

  // Conversations: found by subject (started by an agent) or thread id (posted by the bridge).
  type Seeded = {
    id: string;
    subject: string | null;
    external_id: string | null;
    parts_count: number;
    custom_attributes: Record<string, unknown>;
    rating: unknown;
  };
  const existing = await all<Seeded>(`/api/conversations?channel_id=${channelId}`, k);
  const bySubject = new Map(existing.filter((c) => c.subject).map((c) => [c.subject!.split(':')[0]!, c]));
  const byThread = new Map(existing.filter((c) => c.external_id).map((c) => [c.external_id!, c]));
  const agentIds = agents.map((a) => a.memberId);
  const counts = { conversations: 0, parts: 0 };
  await pool(
    Array.from({ length: CONVERSATIONS }, (_, i) => i),
    CONCURRENCY,
    async (i) => {
      const inbound = i % 4 === 0;
      const contact = contactOf(i);
      const topic = TOPICS[i % TOPICS.length]!;
      let conv = inbound ? byThread.get(`demo-thread-${i}`) : bySubject.get(`Demo #${i}`);
      if (!conv) {
        if (inbound) {
          const raw = JSON.stringify({ external_id: `demo-thread-${i}`, message_id: `demo-message-${i}`, contact, content: `${topic} ${tag(i, -1)}` });
          const signature = createHmac('sha256', CHANNEL.secret).update(raw).digest('hex');
          const r = await api('POST', `/api/channels/${channelId}/inbound`, {
            raw,
            headers: { 'x-service-signature': signature, 'x-service-timestamp': String(Math.floor(Date.now() / 1000)) },
          });
          conv = { id: r.body.conversation_id, subject: null, external_id: `demo-thread-${i}`, parts_count: 1, custom_attributes: {}, rating: null };
        } else {
          const a = agents[i % agents.length]!;
          const r = await api('POST', '/api/conversations', {
            cookie: a.cookie,
            workspace: owner.workspaceId,
            idempotencyKey: `demo-conversation-${i}`,
            body: {
              channel_id: channelId,
              subject: `Demo #${i}: ${topic}`,
              body: `Hello ${contact.name.split(' ')[0]}, following up on "${topic}". ${tag(i, -1)}`,
              contact,
            },
          });
          conv = { id: r.body.id, subject: r.body.subject, external_id: null, parts_count: r.body.parts_count, custom_attributes: {}, rating: null };
        }
        counts.conversations++;
      }
      const parts = plan(i, agentIds);
      const partsDone = conv.parts_count >= 1 + parts.length;
      const have = partsDone
        ? null
        : new Set(((await api('GET', `/api/conversations/${conv.id}`, k)).body.parts as { body: string | null }[]).map((p) => p.body));
      for (const [n, p] of partsDone ? [] : parts.entries()) {
        if (have!.has(p.body.body as string)) continue;
        const a = agents[p.by]!;
        await api('POST', `/api/conversations/${conv.id}/${p.kind}`, {
          cookie: a.cookie,
          workspace: owner.workspaceId,
          idempotencyKey: `demo-part-${i}-${n}`,
          body: p.body,
        });
        counts.parts++;
      }
      // Typed attribute values, then a CSAT rating of a closed conversation (after its parts: the rating credits its assignee).
      if (conv.custom_attributes.category === undefined) {
        const values = { category: CATEGORIES[i % TOPICS.length], ...(i % 3 === 0 ? { order_ref: `ORD-${1000 + i}` } : {}) };
        await api('PUT', `/api/conversations/${conv.id}`, { ...k, body: { custom_attributes: values }, idempotencyKey: `demo-attributes-${i}` });
      }
      if (i % 5 === 0 && !conv.rating) {
        const rating = { score: SCORES[(i / 5) % SCORES.length]!, remark: i % 10 === 0 ? 'Quick and friendly, thanks!' : null };
        if (inbound) {
          // The customer rates in their messaging app; the bridge posts it, signed like its inbound messages, with
          // the moment it was given (an older rating never replaces a newer one).
          const raw = JSON.stringify({ external_id: `demo-thread-${i}`, ...rating, rated_at: new Date().toISOString() });
          const signature = createHmac('sha256', CHANNEL.secret).update(raw).digest('hex');
          await api('POST', `/api/channels/${channelId}/ratings`, {
            raw,
            headers: { 'x-service-signature': signature, 'x-service-timestamp': String(Math.floor(Date.now() / 1000)) },
          });
        } else await api('POST', `/api/conversations/${conv.id}/ratings`, { ...k, body: rating, idempotencyKey: `demo-rating-${i}` });
      }
    },
  );
  // Routing: a round-robin team of the two agents, online, and a channel defaulting to it; its conversation is routed.
  await routeDemo(o, agents, contactOf(0), counts);
  // SLA: a policy with a short target and a conversation that breaches it, the breach event seen.
  const slaShown = await slaDemo(k, channelId, contactOf(1), counts);
  log(`added ${counts.conversations} conversations and ${counts.parts} parts (the rest were there)`);

  const totals = (await api('GET', '/api/conversations/counts', k)).body.data as { id: string; count: number }[];
  const all_ = (id: string) => totals.find((c) => c.id === id)?.count ?? 0;
  const conversations = await all<{ contact_id: string; parts_count: number }>('/api/conversations', k);
  const csat = (await api('GET', '/api/reports/csat', k)).body as {
    overall: { count: number; average: number | null; csat: number | null };
    by_assignee: { assignee_id: string | null; count: number; average: number | null }[];
  };
  const nameOf = (id: string | null) => agents.find((a) => a.memberId === id)?.name ?? 'unassigned';
  const result = {
    workspace_id: owner.workspaceId,
    key,
    conversations: all_('all'),
    open: all_('open'),
    closed: all_('closed'),
    snoozed: all_('snoozed'),
    parts: conversations.reduce((n, c) => n + c.parts_count, 0),
    contacts: new Set(conversations.map((c) => c.contact_id)).size,
    members: (await all('/api/members', k)).length,
    ratings: csat.overall.count,
    sla_breach: slaShown.breach ? { conversation_id: slaShown.conversation, target: slaShown.breach.payload.target, seq: slaShown.breach.seq } : null,
    added: counts,
    receiver: receiver.url,
  };

  if (webhooks) {
    // Wait (bounded) for deliveries to start arriving, so the summary can show them.
    const until = Date.now() + 15_000;
    while (receiver.received === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  }

  const lines = [
    '',
    `Demo workspace "${WORKSPACE}" (${owner.workspaceId}) on ${BASE}`,
    `  ${result.conversations} conversations (${result.open} open, ${result.closed} closed, ${result.snoozed} snoozed), ${result.parts} parts, ${result.contacts} contacts, ${result.members} members`,
    `  CSAT: ${csat.overall.count} ratings, average ${csat.overall.average ?? '-'}, ${Math.round((csat.overall.csat ?? 0) * 100)}% satisfied (4 or 5); by assignee: ${csat.by_assignee
      .map((a) => `${nameOf(a.assignee_id)} ${a.count} (avg ${a.average ?? '-'})`)
      .join(', ')}`,
    slaShown.breach
      ? `  SLA: "Demo SLA" conversation ${slaShown.conversation} breached ${slaShown.breach.payload.target} at ${slaShown.breach.created_at} (due ${slaShown.breach.payload.due_at}; event seq ${slaShown.breach.seq})`
      : `  SLA: no breach seen yet on conversation ${slaShown.conversation}`,
    '',
    `  API key (rotated on every run):  ${key}`,
    `  Sign in:  ${OWNER.email} / ${OWNER.password} (owner)`,
    ...AGENTS.map((a) => `            ${a.email} / ${AGENT_PASSWORD} (${a.role})`),
    '',
    '  Where to look:',
    `    ${`${BASE}/docs`.padEnd(40)} the API reference, in a browser`,
    `    ${`${BASE}/metrics`.padEnd(40)} Prometheus metrics`,
    webhooks
      ? `    ${receiver.url.padEnd(40)} this demo's receiver: webhooks at /hooks, channel replies at /bridge (${receiver.received} deliveries so far, signatures verified)`
      : '    (no webhook receiver: the service refused a loopback URL; start it with WEBHOOK_ALLOWLIST=127.0.0.1)',
    `    KEY=${key}`,
    `    curl -s ${BASE}/api/conversations/counts -H "Authorization: Bearer $KEY"`,
    `    curl -s "${BASE}/api/conversations?state=open&per_page=5" -H "Authorization: Bearer $KEY"`,
    `    curl -s "${BASE}/api/events?after_seq=0&per_page=5" -H "Authorization: Bearer $KEY"`,
    `    curl -s ${BASE}/api/reports/csat -H "Authorization: Bearer $KEY"`,
    `    curl -s "${BASE}/api/events?types=conversation.sla_breached&per_page=5" -H "Authorization: Bearer $KEY"`,
    `    curl -s ${BASE}/api/conversations/${slaShown.conversation} -H "Authorization: Bearer $KEY"   # its sla and statistics`,
    ...(mailChannel
      ? [
          `  e-mail to the "${MAIL_CHANNEL.name}" channel (the service started with SMTP_PORT=2525):`,
          `    swaks --server 127.0.0.1:2525 --to ${MAIL_CHANNEL.address} --from grace@customer.example --header 'Subject: Hello' --body 'Where is my order?'`,
        ]
      : ['  (no e-mail channel: start the service with EMAIL_DOMAIN_VERIFICATION=off, or verify a domain of yours first)']),
    `    curl -s "${BASE}/api/conversations?priority=urgent&per_page=5" -H "Authorization: Bearer $KEY"`,
    `    curl -s -X POST ${BASE}/api/conversations/search -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \\`,
    `         -d '{"query":{"field":"custom_attributes.category","operator":"=","value":"billing"},"per_page":5}'`,
    '',
  ];
  console.log(lines.join('\n'));
  console.log(`DEMO_RESULT ${JSON.stringify({ ...result, delivered: receiver.received })}`);

  if (EXIT || !webhooks) {
    await receiver.close();
    return;
  }
  log('the receiver keeps running and prints deliveries every 5 s; Ctrl-C to stop');
  let shown = -1;
  const timer = setInterval(() => {
    if (receiver.received === shown) return;
    shown = receiver.received;
    const kinds = [...receiver.byType.entries()].sort().map(([t, n]) => `${t} ${n}`);
    log(`received ${receiver.received} deliveries: ${kinds.join(', ')}`);
  }, 5000);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  clearInterval(timer);
  await receiver.close();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`[demo] failed: ${(e as Error).message}`);
    process.exit(1);
  },
);
