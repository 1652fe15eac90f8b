import type { Projector } from '../../projections/projector.js';
import type { TagEvent } from './tags.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const TAGS = tableSpec({
  table: 'tags',
  key: ['tenant_id', 'id'],
  columns: { tenant_id: 'uuid', id: 'uuid', name: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
} as const);

export const tagsProjector: Projector<TagEvent> = {
  name: 'tags',
  handles: ['tag.created', 'tag.renamed', 'tag.deleted'],
  tables: ['tags'],
  project(events, writes) {
    const tags = writes.table(TAGS);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.id };
      switch (e.type) {
        case 'tag.created':
          tags.insert({ ...key, name: e.payload.name, created_at: e.created_at, updated_at: e.created_at });
          break;
        case 'tag.renamed':
          tags.patch(key, { name: e.payload.name, updated_at: e.created_at });
          break;
        case 'tag.deleted':
          tags.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`tags projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
