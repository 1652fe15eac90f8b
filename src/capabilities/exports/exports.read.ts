import type { Db } from '../../commands/command.js';
import {
  arrayOf,
  constant,
  dateTime,
  integer,
  nullable,
  number,
  object,
  oneOfStrings,
  str,
  uuid,
  extend,
  type Schema,
  type Static,
} from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import { companySchema, contactSchema, partSchema, recipientSchema, type ConversationAnswers } from './exports.sources.js';

export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** Statuses that hold the contact's one active export. */
export const ACTIVE: readonly ExportStatus[] = ['queued', 'running'];

export interface ExportRow {
  tenant_id: string;
  id: string;
  contact_id: string;
  status: ExportStatus;
  progress: number;
  requested_by: { type: string; id: string };
  attempts: number;
  leased_until: Date | null;
  lease_token: string | null;
  size: number | string | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  expires_at: Date | null;
}

/** Every column but the file, which only the download reads. */
export const COLUMNS = [
  'tenant_id',
  'id',
  'contact_id',
  'status',
  'progress',
  'requested_by',
  'attempts',
  'leased_until',
  'lease_token',
  'size',
  'error',
  'created_at',
  'started_at',
  'completed_at',
  'expires_at',
];

export const exportsOf = (db: Db, tenantId: string) => db('exports').where({ tenant_id: tenantId });

export async function findExport(db: Db, tenantId: string, id: string): Promise<ExportRow | undefined> {
  return isUuid(id) ? exportsOf(db, tenantId).andWhere({ id }).first(COLUMNS) : undefined;
}

/** The stored file (personal values sealed), with the row; null file unless completed. */
export async function findExportFile(db: Db, tenantId: string, id: string): Promise<(ExportRow & { file: Buffer | null }) | undefined> {
  return isUuid(id)
    ? exportsOf(db, tenantId)
        .andWhere({ id })
        .first([...COLUMNS, 'file'])
    : undefined;
}

export const renderExport = (r: ExportRow): Export => ({
  type: 'export',
  id: r.id,
  contact_id: r.contact_id,
  status: r.status,
  progress: r.status === 'completed' || r.status === 'expired' ? 1 : Number(r.progress),
  size: r.size === null ? null : Number(r.size),
  requested_by: r.requested_by,
  error: r.error && r.status === 'failed' ? r.error : null,
  created_at: r.created_at.toISOString(),
  completed_at: r.completed_at?.toISOString() ?? null,
  expires_at: r.expires_at?.toISOString() ?? null,
});

export const exportSchema = object(
  {
    type: constant('export'),
    id: uuid,
    contact_id: uuid,
    status: oneOfStrings(EXPORT_STATUSES),
    progress: number({ minimum: 0, maximum: 1, description: 'Share of the work done, 0 to 1 (1 once completed).' }),
    size: nullable(
      integer({
        minimum: 0,
        description: 'Bytes of the file as built (null until completed). A later erasure or redaction can only make the download smaller.',
      }),
    ),
    requested_by: object({ type: str(), id: str() }, { title: 'ExportRequester' }),
    error: nullable(str({ description: 'Why a failed export failed.' })),
    created_at: dateTime,
    completed_at: nullable(dateTime),
    expires_at: nullable(dateTime, { description: 'When the file is deleted (EXPORT_TTL_HOURS after completion); null until completed.' }),
  },
  { title: 'Export' },
);
export type Export = Static<typeof exportSchema>;

/** The contact as the export renders it: as GET /api/contacts/{id} does (see exports.sources.ts). */
export const exportedContactSchema = contactSchema;

/**
 * The downloaded file (docs/api-guide.md: Subject-access export). `events`: the schema of a feed event (built from the
 * catalogue); `conversation`: the conversation's answer, with what other capabilities add to it.
 */
export const exportFileSchema = (events: Schema, conversation: ConversationAnswers['schema']) =>
  object(
    {
      type: constant('contact_export'),
      id: uuid,
      workspace_id: uuid,
      contact_id: uuid,
      generated_at: dateTime,
      contact: exportedContactSchema,
      companies: arrayOf(companySchema),
      conversations: arrayOf(extend(conversation, { parts: arrayOf(partSchema) }, { title: 'ExportedConversation' })),
      outbound: arrayOf(
        extend(
          recipientSchema,
          { collection_name: str() },
          { title: 'ExportedOutboundRecipient', description: 'A recipient record of the contact: an outbound collection (named) that reached them, and how.' },
        ),
      ),
      events: arrayOf(events),
    },
    { title: 'ContactExportFile' },
  );
/** The export document (exports.document.ts builds it); its events are the feed's envelopes. */
export type ExportFile = Static<ReturnType<typeof exportFileSchema>>;
