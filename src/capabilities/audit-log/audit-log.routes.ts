// GET /api/audit_log: who did what, from where. Every event (its actor, request id, address and user agent, from
// its metadata) and the entries kept beside the log (sign-ins, sign-outs, downloads, ...), newest first, in the
// list envelope. Owners and admins only (audit:read).
import { listQuerySchema, type ListParams, type ListSpec, byCreatedAt } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import { listOf } from '../../api/schemas.js';
import { BadRequest } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { isAuditAction } from './audit-log.actions.js';
import { auditEntrySchema, auditPage, logTable, parsePosition, type AuditFilters } from './audit-log.read.js';

const auditList: ListSpec = byCreatedAt('audit_entry', 'desc');

/**
 * A date-time filter as the UTC instant Postgres reads: RFC 3339 allows year 0 and offsets that move an instant
 * out of the years 1 to 9999, which timestamptz does not hold (400, never a 500).
 */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  const year = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || year < 1 || year > 9999) throw new BadRequest('invalid_field', `${field} must be an instant in the years 1 to 9999.`, field);
  return d.toISOString();
}

const ID = { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:-]+$' };

export function auditLogRoutes(deps: CoreDeps): RouteDef[] {
  const { db, catalogue, forgettable } = deps;
  return [
    route<unknown, ListParams & AuditFilters>({
      method: 'get',
      path: '/audit_log',
      permission: 'audit:read',
      summary: 'The audit log: every change and sign-in activity, with its actor, address and request, newest first',
      responses: { 200: listOf(auditEntrySchema) },
      query: listQuerySchema(auditList, {
        action: { type: 'string', maxLength: 100, pattern: '^[a-z_]+\\.[a-z_]+$', description: 'An event type or an action beside the log.' },
        actor_id: { ...ID, description: "The actor's id, or the member behind it (a member's own actions and those of their API keys)." },
        aggregate_id: ID,
        since: { type: 'string', format: 'date-time', description: 'Entries at or after this instant.' },
        until: { type: 'string', format: 'date-time', description: 'Entries before this instant.' },
      }),
      async handle({ principal, query }) {
        // Everything is checked before any query runs.
        const at = parsePosition(query);
        if (query.action && !catalogue.has(query.action) && !isAuditAction(query.action))
          throw new BadRequest(
            'unknown_audit_action',
            `action names nothing the audit log records: ${query.action}. See docs/api-guide.md (Audit log).`,
            'action',
          );
        const since = instant(query.since, 'since');
        const until = instant(query.until, 'until');
        if (since && until && since >= until) throw new BadRequest('invalid_time_range', 'since must be before until.', 'since');
        const page = await auditPage(db, logTable(deps.store.kind), principal.tenantId, { ...query, since, until }, at);
        // Addresses and user agents are sealed: opened now, null where the member or contact was erased.
        return { status: 200, body: await forgettable.reveal(db, principal.tenantId, page) };
      },
    }),
  ];
}
