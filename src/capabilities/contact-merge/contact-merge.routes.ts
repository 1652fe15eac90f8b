import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { ERROR } from '../../api/schemas.js';
import type { RouteDef } from '../../api/routes.js';
import type { CoreDeps } from '../capability.js';
import { contactSchema, findContactRow, renderContacts } from '../contacts/index.js';
import { mergeContact } from './contact-merge.commands.js';

const MergeInto = Type.Object(
  { into: Type.String({ format: 'uuid', description: 'The contact to merge this one into: the survivor.' }) },
  { additionalProperties: false },
);

export function contactMergeRoutes(deps: CoreDeps): RouteDef[] {
  return [
    commandRoute(deps, {
      method: 'post',
      path: '/contacts/:id/merge',
      permission: 'contacts:write',
      summary:
        'Merge a contact into another: its conversations, companies, tags, notes and what the survivor lacks of its identifiers and custom attributes go over; it answers 410 from then on',
      body: MergeInto,
      responses: { 410: ERROR, 422: ERROR },
      command: ({ params, body }) => mergeContact({ sourceId: params.id, targetId: body.into }, deps.forgettable),
      answer: {
        status: 200,
        schema: contactSchema,
        // The survivor, as it now is.
        read: async (tx, _events, { principal, body }) => {
          const row = await findContactRow(tx, principal.tenantId, body.into);
          return (await renderContacts(tx, principal.tenantId, [row!]))[0]!;
        },
      },
    }),
  ];
}
