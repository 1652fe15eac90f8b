import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { ContactEvent } from '../contacts/index.js';
import type { CsatEvent } from './csat.events.js';

export const RATINGS = tableSpec({
  table: 'conversation_ratings',
  key: ['tenant_id', 'conversation_id'],
  nullable: ['assignee_id', 'remark', 'team_id'],
  columns: {
    tenant_id: 'uuid',
    conversation_id: 'uuid',
    rating_id: 'uuid',
    score: 'smallint',
    remark: 'text',
    contact_id: 'uuid',
    assignee_id: 'uuid',
    team_id: 'text',
    rated_by_type: 'text',
    rated_by_id: 'text',
    rated_at: 'timestamptz',
  },
} as const);

type Handled = CsatEvent | Extract<ContactEvent, { type: 'contact.erased' }>;

export const csatProjector: Projector<Handled> = {
  name: 'csat',
  handles: ['conversation.rated', 'contact.erased'],
  tables: ['conversation_ratings'],
  project(events, writes) {
    const ratings = writes.table(RATINGS);
    for (const e of events) {
      switch (e.type) {
        case 'conversation.rated': {
          const p = e.payload;
          // An upsert: a later rating of the conversation replaces the row.
          ratings.insert({
            tenant_id: e.tenant_id,
            conversation_id: p.conversation_id,
            rating_id: p.rating_id,
            score: p.score,
            remark: p.remark ?? null,
            contact_id: p.contact_id,
            assignee_id: p.assignee_id,
            team_id: p.team_id,
            rated_by_type: p.rated_by.type,
            rated_by_id: p.rated_by.id,
            rated_at: p.rated_at ?? e.created_at,
          });
          break;
        }
        case 'contact.erased':
          // The remark is the customer's words; the score stays for the report.
          for (const id of e.payload.conversation_ids) ratings.patch({ tenant_id: e.tenant_id, conversation_id: id }, { remark: null });
          break;
        default: {
          const never: never = e;
          throw new Error(`csat projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
