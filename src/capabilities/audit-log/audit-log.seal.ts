// The caller's address and user agent are personal data. They are kept sealed, as `$sealed_value` tokens
// (Forgettable.shred), under the data key of the person they are about: the member acting (a session, or a
// member's API key), or, for a channel's post, the contact it was about. Erasing that member or contact
// destroys the key, and every copy reads as null: in the events' metadata and in the entries beside the log.
import type { CommandContext, Db, MetadataHook, RequestClient } from '../../commands/command.js';
import type { EventMetadata, NewEvent } from '../../eventstore/envelope.js';
import type { EventCatalogue } from '../../eventstore/catalogue.js';
import type { Forgettable, PersonalObject } from '../../eventstore/forgettable.js';

/** Whose data key seals a client. */
export interface ClientSubject {
  kind: 'member' | 'contact';
  id: string;
}

/** A client as stored: each field a sealed token, or null (none given, or no key to seal it with). */
export interface SealedClient {
  ip: unknown;
  user_agent: unknown;
}

const OBJECT_TYPE = { member: 'audit_member_client', contact: 'audit_contact_client' } as const;

/** The object types shred seals (registered with the module's `personal`). */
export const CLIENT_OBJECTS: readonly PersonalObject[] = [
  { type: OBJECT_TYPE.member, kind: 'member', fields: ['ip', 'user_agent'] },
  { type: OBJECT_TYPE.contact, kind: 'contact', fields: ['ip', 'user_agent'] },
];

/** Sealed clients kept per process, so a member's writes from the same place seal without a key lookup. */
const CACHE_MAX = 10_000;

export class ClientSeals {
  private readonly cache = new Map<string, SealedClient>();

  constructor(private readonly forgettable: Forgettable) {}

  /**
   * Seals each client under its subject's data key, in one key lookup for those not sealed before.
   * `known`: data keys created by the transaction `db` is (not visible elsewhere yet).
   */
  async seal(
    db: Db,
    tenantId: string,
    wanted: readonly ({ subject: ClientSubject; client: RequestClient } | null)[],
    known?: ReadonlyMap<string, Buffer>,
  ): Promise<(SealedClient | null)[]> {
    const out: (SealedClient | null)[] = wanted.map(() => null);
    const missing: number[] = [];
    wanted.forEach((w, i) => {
      if (!w || (w.client.ip === null && w.client.user_agent === null)) return;
      const hit = this.cache.get(cacheKey(tenantId, w.subject, w.client));
      if (hit) out[i] = hit;
      else missing.push(i);
    });
    if (missing.length === 0) return out;
    const doc = missing.map((i) => {
      const { subject, client } = wanted[i]!;
      return { type: OBJECT_TYPE[subject.kind], id: subject.id, ip: client.ip, user_agent: client.user_agent };
    });
    const shredded = (await this.forgettable.shred(db, tenantId, doc, known)) as { ip: unknown; user_agent: unknown }[];
    missing.forEach((i, j) => {
      const { subject, client } = wanted[i]!;
      const sealed: SealedClient = { ip: shredded[j]!.ip ?? null, user_agent: shredded[j]!.user_agent ?? null };
      out[i] = sealed;
      // Kept only when sealed under a committed key: a key this transaction created could still roll back
      // (Forgettable's new keys are named tenant|subject). A subject without a key sealed nothing: not kept.
      const fresh = [...(known?.keys() ?? [])].some((k) => k.endsWith(`|${subject.kind}:${subject.id}`));
      if (!fresh && (sealed.ip !== null || client.ip === null) && (sealed.user_agent !== null || client.user_agent === null))
        this.remember(cacheKey(tenantId, subject, client), sealed);
    });
    return out;
  }

  private remember(key: string, sealed: SealedClient): void {
    this.cache.delete(key);
    this.cache.set(key, sealed);
    if (this.cache.size > CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
  }
}

const cacheKey = (tenantId: string, s: ClientSubject, c: RequestClient) => JSON.stringify([tenantId, s.kind, s.id, c.ip, c.user_agent]);

/**
 * Whose personal data a command's client is: the member acting (in person or through their key), or, for a
 * channel (a bridge posting for a contact), the contact its first event that declares one names (`postedFor`, in
 * the event catalogue). Workers and the CLI have none.
 */
export function clientSubject(actor: NonNullable<EventMetadata['actor']>, events: readonly NewEvent[], catalogue: EventCatalogue): ClientSubject | null {
  if ((actor.type === 'member' || actor.type === 'api_key') && actor.member_id) return { kind: 'member', id: actor.member_id };
  if (actor.type !== 'channel') return null;
  for (const e of events) {
    const field = catalogue.get(e.type)?.postedFor?.contact;
    const named = field === undefined ? undefined : e.payload[field];
    if (typeof named === 'string') return { kind: 'contact', id: named };
    const author = named as { type?: unknown; id?: unknown } | null | undefined;
    if (author?.type === 'contact' && typeof author.id === 'string') return { kind: 'contact', id: author.id };
  }
  return null;
}

/** The shell's metadata hook from the audit log: each command's client, sealed, as its events' `metadata.client`. */
export function eventClientSealer(forgettable: Forgettable, catalogue: EventCatalogue): MetadataHook {
  const seals = new ClientSeals(forgettable);
  return {
    applies: (ctx) => ctx.client !== undefined,
    async add(db, tenantId, commands, known) {
      const wanted = commands.map(({ ctx, events }: { ctx: CommandContext; events: readonly NewEvent[] }) => {
        const subject = ctx.client ? clientSubject(ctx.actor, events, catalogue) : null;
        return subject && ctx.client ? { subject, client: ctx.client } : null;
      });
      const sealed = await seals.seal(db, tenantId, wanted, known);
      return sealed.map((s) => (s ? { client: { ip: s.ip, user_agent: s.user_agent } } : null));
    },
  };
}
