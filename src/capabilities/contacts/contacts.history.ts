// A contact as it was right after event N (GET /api/contacts/{id}?as_of_seq=N), and its history
// (GET /api/contacts/{id}/history). The past state is the contacts projector's own fold of the contact's
// events up to N, rendered as the present one is: personal fields opened where the contact's key still
// exists, null once the contact was erased (also for a state before the erasure); erased as of N, it answers
// 410 like the present. Company and tag names are today's. A company's or tag's deletion is that
// company's or tag's event, not the contact's, and is not in it.
import { eventsUpTo, historyRoute } from '../../api/history.js';
import type { RouteDef } from '../../api/routes.js';
import { isUuid } from '../../platform/ids.js';
import { foldInMemory } from '../../projections/past-state.js';
import type { CoreDeps } from '../capability.js';
import { companiesByIds } from '../companies/index.js';
import { tagRefsSql, type TagRef } from '../tags/index.js';
import { contactErased } from './contacts.decider.js';
import { contactsProjector } from './contacts.projection.js';
import { findContactRow, renderContact, type CompanyRef, type ContactRow } from './contacts.read.js';

/** The contact as of seq `asOfSeq` (checked against the log by the caller); null before it existed; 410 if erased by then. */
export async function pastContact(deps: Pick<CoreDeps, 'db' | 'store'>, tenantId: string, id: string, asOfSeq: number) {
  if (!isUuid(id)) return null;
  const contactId = id.toLowerCase();
  const rows = foldInMemory([contactsProjector], await eventsUpTo(deps.store, tenantId, contactId, asOfSeq));
  const contact = rows('contacts').find((r) => r.id === contactId) as Omit<ContactRow, 'tags'> | undefined;
  if (!contact) return null;
  if (contact.erased_at) throw contactErased(contact.id);
  const links = (rows('contact_companies') as { contact_id: string; company_id: string; attached_at: Date }[])
    .filter((l) => l.contact_id === contactId)
    .sort((a, b) => a.attached_at.getTime() - b.attached_at.getTime() || a.company_id.localeCompare(b.company_id));
  const companies = new Map(
    (
      await companiesByIds(
        deps.db,
        tenantId,
        links.map((l) => l.company_id),
      )
    ).map((c) => [c.id, c]),
  );
  const refs: CompanyRef[] = links.flatMap((l) => {
    const c = companies.get(l.company_id);
    return c ? [{ type: 'company' as const, id: c.id, company_id: c.company_id, name: c.name }] : [];
  });
  const tags =
    contact.tag_ids.length === 0
      ? []
      : ((await deps.db.raw(`SELECT ${tagRefsSql('x')} AS tags FROM (SELECT ?::uuid AS tenant_id, ?::uuid[] AS tag_ids) x`, [tenantId, [...contact.tag_ids]]))
          .rows[0].tags as TagRef[]);
  return renderContact({ ...contact, tags }, refs);
}

export function contactHistoryRoute(deps: CoreDeps): RouteDef {
  return historyRoute({
    path: '/contacts/:id/history',
    permission: 'contacts:read',
    summary: "A contact's events, oldest first, each with its actor (an erased contact's too: ids and who did what stay)",
    what: 'contact',
    store: deps.store,
    exists: async ({ principal, params }) => (await findContactRow(deps.db, principal.tenantId, params.id)) !== undefined,
  });
}
