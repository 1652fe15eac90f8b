import { type ListSpec, byCreatedAt } from '../../api/pagination/list.js';
import { listRoute } from '../../api/resource-routes.js';
import type { RouteDef } from '../../api/routes.js';
import { constant, dateTime, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import type { RowOf } from '../../projections/table-batch.js';
import type { CoreDeps } from '../capability.js';
import { AUTHOR_TYPES } from '../conversations/index.js';
import type { MENTIONS } from './mentions.projection.js';

/** A row of `mentions` (RowOf), who mentioned narrowed to the authors a part has. */
type MentionRow = RowOf<typeof MENTIONS> & { mentioned_by_type: (typeof AUTHOR_TYPES)[number] };

const mentionList: ListSpec = byCreatedAt('mention', 'desc', { idIsUuid: true });

export const mentionSchema = object(
  {
    type: constant('mention'),
    id: uuid,
    conversation_id: uuid,
    part_id: uuid,
    mentioned_by: object({ type: oneOfStrings(AUTHOR_TYPES), id: str() }, { title: 'MentionAuthor', description: "The note's author." }),
    created_at: dateTime,
  },
  { title: 'Mention', description: 'A note that mentioned the caller: read the note itself with GET /api/conversations/{conversation_id}.' },
);
type Mention = Static<typeof mentionSchema>;

const renderMention = (r: MentionRow): Mention => ({
  type: 'mention',
  id: r.id,
  conversation_id: r.conversation_id,
  part_id: r.part_id,
  mentioned_by: { type: r.mentioned_by_type, id: r.mentioned_by_id },
  created_at: r.created_at.toISOString(),
});

export function mentionsRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  return [
    listRoute<MentionRow>({
      path: '/me/mentions',
      permission: 'conversations:read',
      summary: "The notes that mentioned the caller (a key's member), newest first",
      item: mentionSchema,
      spec: mentionList,
      query: ({ principal }) => db('mentions').where({ tenant_id: principal.tenantId, member_id: principal.memberId }),
      render: renderMention,
    }),
  ];
}
