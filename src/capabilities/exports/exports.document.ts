// The export file: one JSON document about one contact (docs/api-guide.md: Subject-access
// export). Built from other capabilities' read functions (exports.sources.ts),
// stored with every personal value sealed under its subject's data key
// (Forgettable.shred) and opened again, a batch at a time, when downloaded.
import type { Db } from '../../commands/command.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import type { ExportFile } from './exports.read.js';
import type { ExportSources, FeedTable } from './exports.sources.js';

type Json = Record<string, unknown>;

/** What a download gives, opened (exportFileSchema); its events are the feed's envelopes, payloads sealed until opened. */
export type ExportDocument = ExportFile;

const PARTS_PAGE = 500;
const EVENTS_PAGE = 1000;

export interface BuildInput {
  db: Db;
  tenantId: string;
  exportId: string;
  contactId: string;
  now: Date;
  sources: ExportSources;
  /** where the change feed is read (feedTable of the store's kind) */
  feed: FeedTable;
  /** told the share of the work done (0..1) after each step; may throw to abandon the build */
  progress?(done: number): Promise<void>;
}

/**
 * Gathers the document: the contact, their companies, their conversations
 * with every part (oldest first, parts in order), and the envelopes of every
 * event about the contact or one of their conversations, in seq order, their
 * payloads sealed as the feed keeps them. Null when the contact does not exist.
 */
export async function buildDocument(b: BuildInput): Promise<ExportDocument | null> {
  const { db, tenantId, contactId, sources } = b;
  const contact = await sources.contact(db, tenantId, contactId);
  if (!contact) return null;
  const companies = await sources.companies(db, tenantId, contactId);
  const shells = await sources.conversations(db, tenantId, contactId);
  const steps = shells.length + 2;
  await b.progress?.(1 / steps);

  const conversations: ExportDocument['conversations'] = [];
  for (const [i, c] of shells.entries()) {
    const parts: ExportDocument['conversations'][number]['parts'] = [];
    for (let after = 0; ;) {
      const page = await sources.parts(db, tenantId, c.id, after, PARTS_PAGE);
      parts.push(...page.parts);
      if (page.parts.length < PARTS_PAGE) break;
      after = page.lastSeq;
    }
    conversations.push({ ...c, parts });
    await b.progress?.((i + 2) / steps);
  }

  const outbound = await sources.outbound(db, tenantId, contactId);

  const events: Json[] = [];
  const about = [contactId, ...shells.map((c) => c.id)];
  for (let after = 0; ;) {
    const page = await sources.events(db, b.feed, tenantId, about, after, EVENTS_PAGE);
    events.push(...page);
    if (page.length < EVENTS_PAGE) break;
    after = page.at(-1)!.seq;
  }

  return {
    type: 'contact_export',
    id: b.exportId,
    workspace_id: tenantId,
    contact_id: contactId,
    generated_at: b.now.toISOString(),
    contact,
    companies,
    conversations,
    outbound,
    events,
  };
}

/** The file as stored: the document with every personal value sealed, as UTF-8 JSON. */
export async function sealDocument(forgettable: Forgettable, db: Db, tenantId: string, doc: ExportDocument): Promise<Buffer> {
  return Buffer.from(JSON.stringify(await forgettable.shred(db, tenantId, doc)), 'utf8');
}

const BATCH = 100;

/**
 * The stored file opened, as text chunks: the same bytes as JSON.stringify of
 * the whole opened document, produced a top-level member (or a batch of array
 * elements) at a time, so a long history never sits in memory twice. What can
 * no longer be opened (erased, redacted) reads as null. `open` runs each
 * opening (a data-key look-up) in the tenant's scope.
 */
export async function* openedFile(stored: Buffer, open: (value: unknown) => Promise<unknown>): AsyncGenerator<string> {
  const doc = JSON.parse(stored.toString('utf8')) as Json;
  yield '{';
  for (const [i, [key, value]] of Object.entries(doc).entries()) {
    yield `${i ? ',' : ''}${JSON.stringify(key)}:`;
    if (!Array.isArray(value)) {
      yield JSON.stringify(await open(value));
      continue;
    }
    yield '[';
    for (let j = 0; j < value.length; j += BATCH) {
      const opened = (await open(value.slice(j, j + BATCH))) as unknown[];
      yield `${j ? ',' : ''}${opened.map((x) => JSON.stringify(x)).join(',')}`;
    }
    yield ']';
  }
  yield '}';
}

/** Bytes of the opened file (what a download sends now). */
export async function openedSize(stored: Buffer, open: (value: unknown) => Promise<unknown>): Promise<number> {
  let n = 0;
  for await (const chunk of openedFile(stored, open)) n += Buffer.byteLength(chunk, 'utf8');
  return n;
}
