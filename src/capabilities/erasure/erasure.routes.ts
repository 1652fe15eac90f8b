import { commandRoute } from '../../api/command-route.js';
import type { RouteDef } from '../../api/routes.js';
import { constant, dateTime, ERROR, object, uuid, type Static } from '../../api/schemas.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { contactErasure } from '../contacts/index.js';
import { eraseContact } from './erasure.commands.js';

const erasureSchema = object(
  {
    type: constant('contact_erasure'),
    id: uuid,
    erased_at: dateTime,
  },
  { title: 'ContactErasure' },
);
type ContactErasure = Static<typeof erasureSchema>;

export function erasureRoutes(deps: CoreDeps): RouteDef[] {
  return [
    commandRoute(deps, {
      method: 'delete',
      path: '/contacts/:id',
      permission: 'contacts:delete',
      summary:
        'Erase a contact: their personal data and the content of every part of their conversations become unreadable everywhere; a repeat answers the same',
      // 410 contact_merged: a contact merged into another is erased with it (erase the survivor).
      responses: { 410: ERROR },
      command: (call) => eraseContact(call.params.id, deps.forgettable, deps.sealer),
      answer: {
        status: 200,
        schema: erasureSchema,
        // A repeat appends nothing and answers the same: the erasure as it stands.
        read: async (tx, _events, { principal, params }): Promise<ContactErasure> => {
          const now = await contactErasure(tx, principal.tenantId, params.id);
          if (!now?.erased_at) throw new NotFound('contact');
          return { type: 'contact_erasure', id: params.id, erased_at: now.erased_at.toISOString() };
        },
      },
    }),
  ];
}
