// Synthetic but realistic help-desk histories, payloads shaped exactly as the
// deciders make them (src/capabilities/*/…decider.ts), so every projector
// accepts them: a workspace, its owner and a channel, then contacts writing in,
// conversations opening, and parts (customer messages, replies, notes,
// assignments, closes and reopens) piling up on the open conversations.
import { randomUUID } from 'node:crypto';
import type { PendingEvent } from '../../src/eventstore/envelope.js';

/** mulberry32: a small seeded PRNG, so two runs with the same seed make the same shape. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LINES = [
  'Hello, my order #4411 has not arrived yet and the tracking page has said "label created" for six days.',
  'Thanks for reaching out! I have asked the warehouse to check the parcel and will update you today.',
  'Customer is on the annual plan; refund window is 30 days. Escalating to billing.',
  'Could you send me a photo of the damaged item and the packaging, please?',
  'I was charged twice for the same subscription this month, can you refund one of them?',
  'Your replacement has shipped, the tracking number is 1Z999AA10123456784.',
];

type Author = { type: 'contact' | 'member' | 'api_key' | 'system'; id: string };

interface OpenConversation {
  id: string;
  contactId: string;
  state: 'open' | 'closed' | 'snoozed';
  parts: number;
}

/** One tenant's story, event by event. */
export class TenantStory {
  readonly id: string;
  private readonly rnd: () => number;
  private readonly owner = { id: randomUUID(), userId: randomUUID() };
  private readonly agents: string[] = [];
  private readonly channelId = randomUUID();
  private readonly contacts: string[] = [];
  private readonly open: OpenConversation[] = [];
  private opening: PendingEvent[] = [];
  private clock: number;
  private n = 0;

  constructor(index: number, start = Date.UTC(2025, 0, 1), tenantId: string = randomUUID()) {
    this.id = tenantId;
    this.rnd = prng(index + 1);
    this.clock = start;
    this.opening = [
      this.event('workspace.created', 'workspace', this.id, { workspace_id: this.id, name: `Bench Workspace ${index + 1}` }, true),
      this.event(
        'member.joined',
        'member',
        this.owner.id,
        { member_id: this.owner.id, user_id: this.owner.userId, email: `owner${index + 1}@bench.example.com`, name: `Owner ${index + 1}`, role: 'owner' },
        true,
      ),
      this.event('channel.created', 'channel', this.channelId, {
        channel_id: this.channelId,
        kind: 'api',
        name: 'WhatsApp bridge',
        source: `bench-${index + 1}`,
        default_team_id: null,
      }),
    ];
    for (let i = 0; i < 3; i++) {
      const memberId = randomUUID();
      this.agents.push(memberId);
      this.opening.push(
        this.event('member.joined', 'member', memberId, {
          member_id: memberId,
          user_id: randomUUID(),
          email: `agent${i}-t${index + 1}@bench.example.com`,
          name: `Agent ${i}`,
          role: 'agent',
        }),
      );
    }
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rnd() * list.length)]!;
  }

  private event(type: string, aggregate_type: string, aggregate_id: string, payload: Record<string, unknown>, system = false): PendingEvent {
    this.clock += 1000 + Math.floor(this.rnd() * 30_000);
    this.n++;
    return {
      id: randomUUID(),
      type,
      aggregate_type,
      aggregate_id,
      payload,
      created_at: new Date(this.clock).toISOString(),
      metadata: system
        ? { actor: { type: 'system', id: 'cli' } }
        : { actor: { type: 'member', id: this.owner.id, member_id: this.owner.id }, request_id: `req-${randomUUID()}` },
    };
  }

  private part(c: OpenConversation, partType: string, author: Author, body: string | null, extra: Record<string, unknown> = {}): PendingEvent {
    c.parts++;
    return this.event('conversation_part.created', 'conversation', c.id, {
      conversation_id: c.id,
      part_id: randomUUID(),
      part_type: partType,
      channel_id: this.channelId,
      author,
      body,
      ...extra,
    });
  }

  /** The next one to three events (a new conversation comes with its contact and first message). */
  next(): PendingEvent[] {
    if (this.opening.length) {
      const out = this.opening;
      this.opening = [];
      return out;
    }
    const r = this.rnd();
    if (this.open.length < 3 || r < 0.18) {
      const out: PendingEvent[] = [];
      let contactId: string;
      if (this.contacts.length === 0 || this.rnd() < 0.6) {
        contactId = randomUUID();
        const k = this.contacts.length;
        this.contacts.push(contactId);
        out.push(
          this.event('contact.created', 'contact', contactId, {
            contact_id: contactId,
            external_id: `wa:+1555${String(k).padStart(7, '0')}`,
            email: `customer${k}@example.com`,
            name: `Customer ${k}`,
            phone: `+1555${String(k).padStart(7, '0')}`,
            channel_id: this.channelId,
          }),
        );
      } else contactId = this.pick(this.contacts);
      const c: OpenConversation = { id: randomUUID(), contactId, state: 'open', parts: 0 };
      out.push(
        this.event('conversation.created', 'conversation', c.id, {
          conversation_id: c.id,
          channel_id: this.channelId,
          contact_id: contactId,
          external_id: `thread-${c.id.slice(0, 8)}`,
          subject: null,
          state: 'open',
          assignee_id: null,
          team_id: null,
          source: 'inbound',
        }),
      );
      out.push(
        this.part(c, 'message', { type: 'contact', id: contactId }, this.pick(LINES), {
          external_id: `wamid.${randomUUID()}`,
          sent_at: new Date(this.clock).toISOString(),
        }),
      );
      this.open.push(c);
      if (this.open.length > 50) this.open.shift();
      return out;
    }
    const c = this.pick(this.open);
    const agent: Author = { type: 'member', id: this.pick(this.agents) };
    if (c.state !== 'open') return [this.part(c, 'open', agent, null, { state: (c.state = 'open'), snoozed_until: null })];
    if (r < 0.45) return [this.part(c, 'comment', agent, this.pick(LINES))];
    if (r < 0.65)
      return [
        this.part(c, 'message', { type: 'contact', id: c.contactId }, this.pick(LINES), {
          external_id: `wamid.${randomUUID()}`,
          sent_at: new Date(this.clock).toISOString(),
        }),
      ];
    if (r < 0.75) return [this.part(c, 'note', agent, this.pick(LINES))];
    if (r < 0.85) return [this.part(c, 'assignment', agent, null, { assignee_id: this.pick(this.agents) })];
    if (r < 0.93) return [this.part(c, 'close', agent, null, { state: (c.state = 'closed'), snoozed_until: null })];
    const until = new Date(this.clock + 86_400_000).toISOString();
    c.state = 'snoozed';
    return [this.part(c, 'snoozed', agent, null, { state: 'snoozed', snoozed_until: until })];
  }

  /** At least `n` events (whole steps, so a new conversation is never split from its contact). */
  take(n: number): PendingEvent[] {
    const out: PendingEvent[] = [];
    while (out.length < n) out.push(...this.next());
    return out;
  }
}

/** A customer-visible reply as `POST /api/conversations/{id}/reply` appends it. */
export function replyEvent(conversationId: string, channelId: string, authorId: string, i: number): PendingEvent {
  return {
    id: randomUUID(),
    type: 'conversation_part.created',
    aggregate_type: 'conversation',
    aggregate_id: conversationId,
    payload: {
      conversation_id: conversationId,
      part_id: randomUUID(),
      part_type: 'comment',
      channel_id: channelId,
      author: { type: 'api_key', id: authorId },
      body: LINES[i % LINES.length],
    },
    created_at: new Date().toISOString(),
    metadata: { actor: { type: 'api_key', id: authorId }, request_id: `req-${randomUUID()}` },
  };
}
