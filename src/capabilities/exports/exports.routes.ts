import { anyEventSchema } from '../../eventstore/event-schemas.js';
import { getRoute } from '../../api/resource-routes.js';
import { ResponseDoc, route, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import { Conflict, Gone, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { actorOf, AuditTrail } from '../audit-log/index.js';
import { requestClient } from '../../api/command-context.js';
import { openedFile } from './exports.document.js';
import { exportFileSchema, exportSchema, findExport, findExportFile, renderExport } from './exports.read.js';
import { announce, requestExport } from './exports.repo.js';
import { ConversationAnswers, exportSources } from './exports.sources.js';

const location = (id: string) => `/api/exports/${id}`;

export function exportsRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock, forgettable, catalogue } = deps;
  const trail = new AuditTrail(deps);
  const answers = ConversationAnswers.of(deps.additions);
  const sources = exportSources(answers);
  const fileSchema = exportFileSchema(anyEventSchema(catalogue, { withId: true, title: 'FeedEvent', variantSuffix: 'FeedEvent' }), answers.schema);

  return [
    route({
      method: 'post',
      path: '/contacts/:id/exports',
      permission: 'contacts:export',
      // Building an export reads everything about a contact; downloading streams all of it.
      rateClass: 'expensive',
      summary: 'Request a subject-access export of a contact (built in the background)',
      responses: {
        202: new ResponseDoc('Queued; follow `Location` (GET /api/exports/{id}) until `status` is `completed`, then download.', exportSchema),
        409: new ResponseDoc('`export_in_progress`: the contact already has a queued or running export; the message and `Location` name it.', ERROR),
        410: new ResponseDoc('`contact_erased`: the contact was erased; nothing is left to export.', ERROR),
      },
      async handle(call) {
        const tenantId = call.principal.tenantId;
        const contactId = call.params.id;
        if (!(await sources.contact(db, tenantId, contactId))) throw new NotFound('contact');
        if (await sources.erased(db, tenantId, contactId)) throw new Gone('contact_erased', 'The contact was erased; there is nothing left to export.');
        const p = call.principal;
        const requestedBy = p.via === 'api_key' ? { type: 'api_key', id: p.keyId! } : { type: 'member', id: p.memberId };
        const out = await requestExport(db, {
          tenant_id: tenantId,
          id: call.write.ids.uuid(),
          contact_id: contactId,
          requested_by: requestedBy,
          created_at: clock.now(),
        });
        if ('active' in out) {
          throw new Conflict(
            'export_in_progress',
            `The contact already has an export in progress: ${out.active.id}. Wait for it (GET ${location(out.active.id)}).`,
            { location: location(out.active.id) },
          );
        }
        await announce(db).catch(() => undefined); // the poll tick picks it up anyway
        return { status: 202, headers: { location: location(out.created.id) }, body: renderExport(out.created) };
      },
    }),

    getRoute({
      path: '/exports/:id',
      permission: 'contacts:export',
      summary: 'An export: its status, progress, size and expiry',
      resource: exportSchema,
      what: 'export',
      find: ({ principal, params }) => findExport(db, principal.tenantId, params.id),
      render: renderExport,
    }),

    route({
      method: 'get',
      path: '/exports/:id/download',
      permission: 'contacts:export',
      rateClass: 'expensive',
      summary: 'Download a completed export (one JSON document, streamed as an attachment)',
      responses: {
        200: new ResponseDoc(
          'The file (docs/api-guide.md: Subject-access export): personal values opened now, so what was erased or redacted since reads as null.',
          fileSchema,
        ),
        409: new ResponseDoc('`export_not_ready` (queued or running) or `export_failed`.', ERROR),
        410: new ResponseDoc('`export_expired`: the file was deleted EXPORT_TTL_HOURS after completion; request a new export.', ERROR),
      },
      async handle(call) {
        const tenantId = call.principal.tenantId;
        const row = await findExportFile(db, tenantId, call.params.id);
        if (!row) throw new NotFound('export');
        if (row.status === 'expired') throw new Gone('export_expired', 'The export has expired and its file was deleted; request a new export.');
        if (row.status === 'failed') throw new Conflict('export_failed', 'The export failed; request a new one.');
        if (row.status !== 'completed' || !row.file)
          throw new Conflict('export_not_ready', `The export is ${row.status}; download it once its status is completed.`);
        // Who took a copy of a contact's data, and from where: the workspace's audit log (export.downloaded).
        await trail.record([
          {
            tenantId,
            action: 'export.downloaded',
            aggregate: { type: 'export', id: row.id },
            actor: actorOf(call.principal),
            client: requestClient(call.req),
            requestId: call.ctx.requestId,
          },
        ]);
        return {
          status: 200,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="contact-${row.contact_id}-export-${row.id}.json"`,
            'cache-control': 'no-store',
          },
          // The body is produced after this handler returns, outside the request's scope: enter it again.
          stream: openedFile(row.file, (v) => deps.scope.run(tenantId, () => forgettable.reveal(db, tenantId, v))),
        };
      },
    }),
  ];
}
