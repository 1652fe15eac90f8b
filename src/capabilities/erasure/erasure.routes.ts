import { commandContext } from '../../api/command-context.js';
import { route, type RouteDef } from '../../api/routes.js';
import { constant, dateTime, object, uuid } from '../../api/schemas.js';
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

export function erasureRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock } = deps;
  return [
    route({
      method: 'delete',
      path: '/contacts/:id',
      permission: 'contacts:delete',
      summary: "Erase a contact: their personal data and the content of every part of their conversations become unreadable everywhere; a repeat answers the same",
      responses: { 200: erasureSchema },
      async handle(call) {
        const { principal: p, params } = call;
        await shell.execute(commandContext(call, clock), eraseContact(params.id!, deps.forgettable));
        // A repeat appends nothing and answers the same: the erasure as it stands.
        const now = await contactErasure(db, p.tenantId, params.id!);
        if (!now?.erased_at) throw new NotFound('contact');
        return { status: 200, body: { type: 'contact_erasure', id: params.id!, erased_at: now.erased_at.toISOString() } };
      },
    }),
  ];
}

