// The log as evidence (docs/audit.md): signed checkpoints of the hash chain,
// the public keys that verify them, and the export an auditor verifies offline.
// Owners and admins only (audit:read), like the audit log.
import { Type } from '@sinclair/typebox';
import type { ListSpec } from '../../api/pagination/list.js';
import { listRoute } from '../../api/resource-routes.js';
import { ResponseDoc, route, type RouteDef } from '../../api/routes.js';
import { ERROR, constant, int, nullable, object, oneOf, str, uuid } from '../../api/schemas.js';
import { BadRequest } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { actorOf, AuditTrail } from '../audit-log/index.js';
import { requestClient } from '../../api/command-context.js';
import { chainIncomplete, CHECKPOINT_COLUMNS, checkpointSchema, renderCheckpoint, type CheckpointRow } from './audit-chain.checkpoints.js';
import { exportLines } from './audit-chain.export.js';
import { keySetSchema, lazySigner, publicKeys } from './audit-chain.keys.js';
import { issuerOf } from './audit-chain.issue.js';

const checkpointList: ListSpec = {
  itemType: 'audit_checkpoint',
  sorts: { signed_at: { column: 'signed_at', kind: 'timestamp' } },
  defaultSort: 'signed_at',
  defaultOrder: 'desc',
};

const SEQ = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

/** Lines of an export (application/x-ndjson): the header, then one per event, then the signed checkpoint. */
const exportLineSchema = oneOf(
  [
    object(
      {
        type: constant('audit_export'),
        tenant_id: uuid,
        after_seq: int,
        to_seq: int,
        prev_hash: str({ description: 'The chain hash of `after_seq` (the genesis value, 64 zeros, for 0): what the first event line chains from.' }),
      },
      { title: 'AuditExportHeader', description: 'The first line.' },
    ),
    object(
      {
        tenant_id: uuid,
        seq: int,
        id: uuid,
        type: str({ description: 'The event type.' }),
        aggregate_type: str(),
        aggregate_id: str(),
        payload: Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'As stored: personal fields sealed (`$sealed`).' }),
        metadata: Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'As stored: actor, request id, idempotency key, sealed client.' }),
        created_at: str({ description: 'ISO 8601, UTC, milliseconds.' }),
        hash: str({ description: "hex SHA-256 of the previous line's hash followed by the RFC 8785 canonical JSON of this line without `hash`." }),
      },
      { title: 'AuditExportEvent', description: 'One line per event, in seq order.' },
    ),
    object(
      {
        type: constant('audit_checkpoint'),
        version: int,
        tenant_id: uuid,
        seq: int,
        hash: str(),
        signed_at: str(),
        prev_checkpoint: nullable(str()),
        kid: str(),
        signature: str(),
      },
      {
        title: 'AuditExportCheckpoint',
        description:
          'The last line: a signed checkpoint of the last event exported, as GET /api/audit/checkpoint answers it without `id` (which no signature covers).',
        optional: ['version', 'prev_checkpoint'],
      },
    ),
  ],
  { title: 'AuditExportLine' },
);

export function auditChainRoutes(deps: CoreDeps): RouteDef[] {
  const { db, store, clock, ids, scope } = deps;
  const signer = lazySigner(deps.config);
  const issuer = issuerOf(deps, signer);
  const trail = new AuditTrail(deps);
  const broken = new ResponseDoc(
    '`audit_chain_broken`: the log does not extend the last checkpoint the service signed (an event at or before it was rewritten, deleted, or a hash made up); the message names the first seq that fails, and nothing is signed. `audit_chain_incomplete`: an event of the range was written without a chain hash (AUDIT_CHAIN=off).',
    ERROR,
  );

  return [
    route({
      method: 'get',
      path: '/audit/checkpoint',
      permission: 'audit:read',
      summary: "A signed checkpoint of the workspace's hash chain at its current head",
      responses: {
        200: new ResponseDoc(
          'The head (seq and chain hash) signed now, or the checkpoint already signed for that same head by the same key. Verify it with GET /api/audit/keys (docs/audit.md).',
          checkpointSchema,
        ),
        409: broken,
      },
      async handle({ principal }) {
        const tenantId = principal.tenantId;
        const body = await issuer.issue({ tenantId, id: ids.uuid(), seq: await store.head(tenantId), now: clock.now() });
        return { status: 200, body };
      },
    }),

    listRoute<CheckpointRow>({
      path: '/audit/checkpoints',
      permission: 'audit:read',
      summary: 'The signed checkpoints issued for the workspace (on request, with exports, and on schedule), newest first',
      item: checkpointSchema,
      spec: checkpointList,
      query: ({ principal }) => db('audit_checkpoints').where({ tenant_id: principal.tenantId }).select(CHECKPOINT_COLUMNS),
      render: renderCheckpoint,
    }),

    route({
      method: 'get',
      path: '/audit/keys',
      permission: 'audit:read',
      summary: 'The public keys (JWK, Ed25519) that verify audit checkpoints, by kid; rotated keys stay listed',
      responses: { 200: keySetSchema },
      async handle() {
        return { status: 200, body: await publicKeys(db, await signer(), deps.log), headers: { 'cache-control': 'no-store' } };
      },
    }),

    route<unknown, { after_seq?: number; to_seq?: number }>({
      method: 'get',
      path: '/audit/export',
      permission: 'audit:read',
      // A whole log read and sent: the workspace's expensive budget, like searches and subject-access exports.
      rateClass: 'expensive',
      summary: "The workspace's log as NDJSON, verifiable offline: a header, every event as stored with its hash, a signed checkpoint",
      query: {
        additionalProperties: false,
        properties: {
          after_seq: { ...SEQ, description: 'Export the events after this seq (default 0: from the first).' },
          to_seq: { ...SEQ, description: "Up to and including this seq (default: the log's head when the export starts)." },
          workspace: { type: 'string', maxLength: 200 },
        },
      },
      responses: {
        200: new ResponseDoc(
          'application/x-ndjson, one JSON document per line, each one of these shapes: the header, then one line per event in seq order, then the signed checkpoint of the last seq. Streamed; verify it with `npm run -s cli -- audit verify --file` or as docs/audit.md says.',
          exportLineSchema,
          null,
          'application/x-ndjson',
        ),
        409: broken,
      },
      async handle(call) {
        const { principal, query } = call;
        const tenantId = principal.tenantId;
        const head = await store.head(tenantId);
        const afterSeq = query.after_seq ?? 0;
        const toSeq = query.to_seq ?? head;
        if (afterSeq > head) throw new BadRequest('seq_ahead_of_log', `after_seq ${afterSeq} is ahead of the log, whose head is seq ${head}.`, 'after_seq');
        if (toSeq > head) throw new BadRequest('seq_ahead_of_log', `to_seq ${toSeq} is ahead of the log, whose head is seq ${head}.`, 'to_seq');
        if (toSeq < afterSeq) throw new BadRequest('invalid_seq_range', `to_seq (${toSeq}) is before after_seq (${afterSeq}).`, 'to_seq');
        // Checked and signed before the first byte: a log that does not extend the last checkpoint is a 409, not a cut
        // stream, and so is a range holding an event without a hash, even one the last checkpoint's check never reads.
        const unhashed = await store.firstUnhashed(tenantId, afterSeq, toSeq);
        if (unhashed !== null) throw chainIncomplete(unhashed);
        const signed = await issuer.issue({ tenantId, id: ids.uuid(), seq: toSeq, now: clock.now() });
        // Who took a copy of the whole log, and from where: the workspace's audit log (audit_log.exported).
        await trail.record([
          {
            tenantId,
            action: 'audit_log.exported',
            aggregate: { type: 'workspace', id: tenantId },
            actor: actorOf(principal),
            client: requestClient(call.req),
            requestId: call.ctx.requestId,
          },
        ]);
        const lines = exportLines(store, { tenantId, afterSeq, toSeq }, async (seq, hash) => {
          // The lines sent must lead to what was signed: a log changed while it streamed ends the stream without a checkpoint.
          if (seq !== signed.seq || hash !== signed.hash) throw new Error(`tenant ${tenantId}: the log changed during the export (seq ${seq})`);
          return signed;
        });
        return {
          status: 200,
          headers: {
            'content-type': 'application/x-ndjson; charset=utf-8',
            'content-disposition': `attachment; filename="audit-${tenantId}-${afterSeq + 1}-${toSeq}.ndjson"`,
            'cache-control': 'no-store',
          },
          // Produced after this handler returned, outside the request's scope: each page enters it again.
          stream: scoped(tenantId, lines, scope),
        };
      },
    }),
  ];
}

/** Runs each step of the generator in the workspace's tenant scope (row-level security), as the request did. */
async function* scoped<T>(tenantId: string, lines: AsyncGenerator<T>, scope: CoreDeps['scope']): AsyncGenerator<T> {
  try {
    for (;;) {
      const next = await scope.run(tenantId, () => lines.next());
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await lines.return(undefined);
  }
}
