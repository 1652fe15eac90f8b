import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { AutomationEvent } from './automation.events.js';

export const AUTOMATION_RULES = tableSpec({
  table: 'automation_rules',
  key: ['tenant_id', 'id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    name: 'text',
    enabled: 'boolean',
    position: 'integer',
    triggers: 'text[]',
    condition: 'jsonb',
    actions: 'jsonb',
    enabled_seq: 'bigint',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  nullable: ['condition'],
} as const);

export const automationProjector: Projector<AutomationEvent> = {
  name: 'automation',
  handles: ['automation_rule.created', 'automation_rule.updated', 'automation_rule.reordered', 'automation_rule.deleted'],
  tables: ['automation_rules'],
  project(events, writes) {
    const rules = writes.table(AUTOMATION_RULES);
    for (const e of events) {
      switch (e.type) {
        case 'automation_rule.created': {
          const p = e.payload;
          rules.insert({
            tenant_id: e.tenant_id,
            id: p.id,
            name: p.name,
            enabled: p.enabled,
            position: p.position,
            triggers: p.on,
            condition: p.if,
            actions: p.then,
            // It applies to what is committed after it.
            enabled_seq: e.seq,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        }
        case 'automation_rule.updated': {
          const p = e.payload;
          const set: Record<string, unknown> = { updated_at: e.created_at };
          if (p.name !== undefined) set.name = p.name;
          if (p.on !== undefined) set.triggers = p.on;
          if (p.if !== undefined) set.condition = p.if;
          if (p.then !== undefined) set.actions = p.then;
          if (p.enabled !== undefined) set.enabled = p.enabled;
          // Enabled again: from here on, not the events of the time it was off.
          if (p.enabled === true) set.enabled_seq = e.seq;
          rules.patch({ tenant_id: e.tenant_id, id: p.id }, set);
          break;
        }
        case 'automation_rule.reordered':
          for (const [position, id] of e.payload.ids.entries()) rules.patch({ tenant_id: e.tenant_id, id }, { position });
          break;
        case 'automation_rule.deleted':
          rules.delete({ tenant_id: e.tenant_id, id: e.payload.id });
          break;
        default: {
          const never: never = e;
          throw new Error(`automation projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
