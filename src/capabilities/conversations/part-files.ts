// Files a new part carries by reference (a reply's, a note's or a new
// conversation's `upload_ids`): an extension point conversations opens and the
// uploads capability fills, so conversations imports nothing of uploads. The
// command loads the files under the workspace's lock, the pure `attach` turns
// them into the part's attachments and an event each (or refuses), and `claim`, beside the
// part's events, makes them the part's: their data keys are then owned by the
// part's, so the part's redaction, and its contact's erasure, destroy them.
// A channel that carries bytes (e-mail) opens them; one that carries links
// (a bridge) gets a URL that works without a key until it expires.
import { extensionPoint } from '../additions.js';
import type { Db } from '../../commands/command.js';
import type { AttachedFiles, Attachment } from './conversations.decider.js';

export type { AttachedFiles, FileAttached } from './conversations.decider.js';
import type { CoreDeps } from '../capability.js';

/** At most this many files on one part (besides attachments given by URL). */
export const MAX_FILES_PER_PART = 10;

/** A file as a command loaded it: what the part would say of it, and whether it may be attached now. */
export interface PartFile {
  id: string;
  state: 'ready' | 'attached' | 'expired';
  attachment: Attachment;
}

export interface PartFiles {
  /** the files these ids name (missing ones are absent), read in the command's transaction */
  load(db: Db, tenantId: string, ids: readonly string[], now: Date): Promise<PartFile[]>;
  /** the attachments of these ids and their events, or the refusal (pure: an unknown, attached or expired file is refused) */
  attach(ids: readonly string[], files: readonly PartFile[], part: { conversationId: string; partId: string }): AttachedFiles;
  /** beside the part's events, in their transaction: the files are the part's from its commit on */
  claim(db: Db, tenantId: string, ids: readonly string[], part: { conversationId: string; partId: string }): Promise<void>;
  /** a file's name, type and bytes (a channel that sends files: e-mail); null once gone */
  open(db: Db, tenantId: string, id: string): Promise<{ name: string; content_type: string; content: Buffer } | null>;
  /** where someone without a key (a bridge) downloads it until `expiresAt` */
  signedUrl(tenantId: string, id: string, expiresAt: Date): string;
}

/** The files a new part carries, made from the service's dependencies (keys, storage, the public URL). */
export const partFiles = extensionPoint<(deps: CoreDeps) => PartFiles>('conversations: files a new part carries (upload_ids)');

/**
 * A bridge's copy of a part's event (DeliveryWorkerDeps.forBridge): each uploaded file's attachment gains a
 * `download_url` that works without a key until `ttlSeconds` from the send. Other bodies pass untouched.
 */
export const withDownloadUrls =
  (files: PartFiles, now: () => Date, ttlSeconds: number) =>
  (tenantId: string, body: string): string => {
    if (!body.includes('"upload_id"')) return body;
    const envelope = JSON.parse(body) as { payload?: { attachments?: unknown } };
    const attachments = envelope.payload?.attachments;
    if (!Array.isArray(attachments)) return body;
    const until = new Date(now().getTime() + ttlSeconds * 1000);
    envelope.payload!.attachments = attachments.map((a: Attachment) =>
      a?.upload_id ? { ...a, download_url: files.signedUrl(tenantId, a.upload_id, until) } : a,
    );
    return JSON.stringify(envelope);
  };
