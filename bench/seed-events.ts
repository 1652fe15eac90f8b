// Fills a database's event log with N synthetic but realistic events, so that
// `npm run cli -- rebuild` has something to chew on. Not a test.
//
//   DATA_DIR=/tmp/rebuild-bench npm run cli -- migrate
//   DATA_DIR=/tmp/rebuild-bench node --import tsx bench/seed-events.ts 100000
//   DATA_DIR=/tmp/rebuild-bench npm run cli -- rebuild
//
// (or DATABASE_URL instead of DATA_DIR). Events go through the real
// PostgresEventStore (es_append, expected seqs) across ~50 tenants; each
// tenant's stream is a plausible history the projectors accept: the workspace
// and its owner, invites, accepted invites, role changes, removals, API keys
// created, rotated and revoked, payloads shaped as the deciders make them.
// Only the log is written: the read models catch up on `rebuild`.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import type { PendingEvent } from '../src/eventstore/envelope.js';
import { PostgresEventStore } from '../src/eventstore/postgres.store.js';
import { createLogger } from '../src/platform/logger.js';
import { openDatabase } from '../src/service.js';
import { prng } from './lib/events.js';

const total = Number(process.argv[2] ?? 100_000);
const TENANTS = Number(process.argv[3] ?? 50);
const BATCH = 1000;
const CONCURRENCY = 8;
if (!Number.isInteger(total) || total < TENANTS * 2 || !Number.isInteger(TENANTS) || TENANTS < 1) {
  console.error('usage: node --import tsx bench/seed-events.ts [events=100000] [tenants=50]  (events >= 2 x tenants)');
  process.exit(2);
}

type Role = 'owner' | 'admin' | 'agent' | 'viewer';
const NON_OWNER: Role[] = ['admin', 'agent', 'viewer'];
const KEY_SCOPES = [['members:read'], ['conversations:read'], ['members:read', 'conversations:read']];

/** One tenant's history, generated event by event from the state it has built so far. */
class TenantStory {
  readonly id = randomUUID();
  private readonly rnd: () => number;
  private readonly owner = { id: randomUUID(), userId: randomUUID() };
  private readonly active = new Map<string, Role>(); // member id -> role (non-owners)
  private readonly pending: { id: string; email: string; role: Role }[] = [];
  private readonly keys = new Map<string, { memberId: string; active: boolean }>();
  private readonly activeKeys: string[] = [];
  private n = 0;
  private clock: number;

  constructor(
    private readonly index: number,
    start: number,
  ) {
    this.rnd = prng(index + 1);
    this.clock = start;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rnd() * list.length)]!;
  }

  private event(type: string, aggregate_type: string, aggregate_id: string, payload: Record<string, unknown>, system = false): PendingEvent {
    this.clock += 1000 + Math.floor(this.rnd() * 60_000);
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

  next(): PendingEvent {
    if (this.n === 0) return this.event('workspace.created', 'workspace', this.id, { workspace_id: this.id, name: `Bench Workspace ${this.index + 1}` }, true);
    if (this.n === 1) {
      const email = `owner${this.index + 1}@bench.example.com`;
      return this.event(
        'member.joined',
        'member',
        this.owner.id,
        { member_id: this.owner.id, user_id: this.owner.userId, email, name: `Owner ${this.index + 1}`, role: 'owner' },
        true,
      );
    }
    for (let tries = 0; tries < 10; tries++) {
      const r = this.rnd();
      if (r < 0.35) {
        const invite = { id: randomUUID(), email: `person${this.n}-t${this.index + 1}@bench.example.com`, role: this.pick(NON_OWNER) };
        this.pending.push(invite);
        const expires = new Date(this.clock + 7 * 24 * 3600_000).toISOString();
        return this.event('member.invited', 'invite', invite.id, {
          invite_id: invite.id,
          email: invite.email,
          role: invite.role,
          invited_by: this.owner.id,
          expires_at: expires,
        });
      }
      if (r < 0.5 && this.pending.length > 0) {
        const invite = this.pending.splice(Math.floor(this.rnd() * this.pending.length), 1)[0]!;
        const memberId = randomUUID();
        this.active.set(memberId, invite.role);
        return this.event('member.joined', 'member', memberId, {
          member_id: memberId,
          user_id: randomUUID(),
          email: invite.email,
          name: `Person ${this.n}`,
          role: invite.role,
          invite_id: invite.id,
        });
      }
      if (r < 0.56 && this.active.size > 0) {
        const memberId = this.pick([...this.active.keys()]);
        const from = this.active.get(memberId)!;
        const to = this.pick(NON_OWNER.filter((x) => x !== from));
        this.active.set(memberId, to);
        return this.event('member.role_changed', 'member', memberId, { member_id: memberId, from, to });
      }
      if (r < 0.59 && this.active.size > 3) {
        const memberId = this.pick([...this.active.keys()]);
        this.active.delete(memberId);
        return this.event('member.removed', 'member', memberId, { member_id: memberId, removed_by: this.owner.id });
      }
      if (r < 0.85) {
        const keyId = randomUUID();
        const memberId = this.active.size > 0 && this.rnd() < 0.5 ? this.pick([...this.active.keys()]) : this.owner.id;
        this.keys.set(keyId, { memberId, active: true });
        this.activeKeys.push(keyId);
        return this.event('api_key.created', 'api_key', keyId, { key_id: keyId, member_id: memberId, name: `key ${this.n}`, scopes: this.pick(KEY_SCOPES) });
      }
      if (r < 0.95 && this.activeKeys.length > 0) {
        const keyId = this.pick(this.activeKeys);
        return this.event('api_key.rotated', 'api_key', keyId, { key_id: keyId, member_id: this.keys.get(keyId)!.memberId });
      }
      if (this.activeKeys.length > 0) {
        const keyId = this.activeKeys.splice(Math.floor(this.rnd() * this.activeKeys.length), 1)[0]!;
        const key = this.keys.get(keyId)!;
        key.active = false;
        return this.event('api_key.revoked', 'api_key', keyId, { key_id: keyId, member_id: key.memberId, revoked_by: this.owner.id });
      }
    }
    const invite = { id: randomUUID(), email: `late${this.n}-t${this.index + 1}@bench.example.com`, role: 'viewer' as Role };
    this.pending.push(invite);
    return this.event('member.invited', 'invite', invite.id, {
      invite_id: invite.id,
      email: invite.email,
      role: invite.role,
      invited_by: this.owner.id,
      expires_at: new Date(this.clock + 604_800_000).toISOString(),
    });
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, pino.destination(2));
  const database = await openDatabase(config, log, { adoptOrphans: false, pool: CONCURRENCY + 2 });
  const store = new PostgresEventStore(database.db, null);
  const started = Date.now();
  let appended = 0;
  try {
    const start = Date.UTC(2025, 0, 1);
    const tenants = Array.from({ length: TENANTS }, (_, i) => ({
      story: new TenantStory(i, start),
      quota: Math.floor(total / TENANTS) + (i < total % TENANTS ? 1 : 0),
      seq: 0,
    }));
    let nextTenant = 0;
    const worker = async () => {
      for (;;) {
        const t = tenants[nextTenant++];
        if (!t) return;
        while (t.seq < t.quota) {
          const batch = Array.from({ length: Math.min(BATCH, t.quota - t.seq) }, () => t.story.next());
          const stored = await store.append(t.story.id, batch, t.seq);
          t.seq = stored[stored.length - 1]!.seq;
          appended += stored.length;
          process.stderr.write(`\r${appended.toLocaleString('en-US')}/${total.toLocaleString('en-US')} events appended`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write('\n');
    const types = await database.db('events').select('type').count<{ type: string; n: number }[]>({ n: '*' }).groupBy('type').orderBy('type');
    process.stdout.write(
      `${JSON.stringify({ appended, tenants: TENANTS, seconds, events_per_second: Math.round(appended / Math.max(seconds, 0.001)), log_by_type: Object.fromEntries(types.map((r) => [r.type, Number(r.n)])) })}\n`,
    );
  } finally {
    await database.db.destroy();
    await database.cluster?.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
