import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { ConversationEvent } from '../conversations/index.js';
import type { SlaEvent } from './sla.events.js';

type Handled = SlaEvent | Extract<ConversationEvent, { type: 'conversation.created' }>;

export const SLA_POLICIES = tableSpec({
  table: 'sla_policies',
  key: ['tenant_id', 'id'],
  nullable: ['first_response_target_seconds', 'next_response_target_seconds', 'resolution_target_seconds'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    name: 'text',
    position: 'bigint',
    match: 'jsonb',
    first_response_target_seconds: 'integer',
    next_response_target_seconds: 'integer',
    resolution_target_seconds: 'integer',
    business_hours: 'boolean',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const CONVERSATION_SLAS = tableSpec({
  table: 'conversation_slas',
  key: ['tenant_id', 'conversation_id'],
  nullable: ['first_response_due_at', 'next_response_due_at', 'next_response_since', 'policy_id', 'resolution_due_at', 'resolution_remaining_seconds'],
  columns: {
    tenant_id: 'uuid',
    conversation_id: 'uuid',
    policy_id: 'uuid',
    first_response_due_at: 'timestamptz',
    next_response_due_at: 'timestamptz',
    resolution_due_at: 'timestamptz',
    next_response_since: 'timestamptz',
    resolution_remaining_seconds: 'integer',
    breaches: 'text[]',
    met: 'text[]',
    updated_at: 'timestamptz',
  },
} as const);

const DUE = { first_response: 'first_response_due_at', next_response: 'next_response_due_at', resolution: 'resolution_due_at' } as const;

/** How a settled target is kept in the row's breaches and met sets: target|due_at|at (read back by the reader). */
export const settledEntry = (target: string, dueAt: string, at: string) => `${target}|${dueAt}|${at}`;

export const slaProjector: Projector<Handled> = {
  name: 'sla',
  handles: [
    'conversation.created',
    'sla_policy.created',
    'sla_policy.updated',
    'sla_policy.deleted',
    'conversation.sla_applied',
    'conversation.sla_breached',
    'conversation.sla_met',
  ],
  tables: ['sla_policies', 'conversation_slas'],
  project(events, writes) {
    const policies = writes.table(SLA_POLICIES);
    const slas = writes.table(CONVERSATION_SLAS);
    for (const e of events) {
      switch (e.type) {
        // Every conversation has its row from the start, so that applied events only ever patch it.
        case 'conversation.created':
          slas.insert({
            tenant_id: e.tenant_id,
            conversation_id: e.payload.conversation_id,
            policy_id: null,
            breaches: [],
            met: [],
            updated_at: e.created_at,
          });
          break;
        case 'sla_policy.created': {
          const { id, ...p } = e.payload;
          policies.insert({ tenant_id: e.tenant_id, id, ...p, position: e.seq, created_at: e.created_at, updated_at: e.created_at });
          break;
        }
        case 'sla_policy.updated': {
          const { id, ...p } = e.payload;
          policies.patch({ tenant_id: e.tenant_id, id }, { ...p, updated_at: e.created_at });
          break;
        }
        case 'sla_policy.deleted':
          policies.delete({ tenant_id: e.tenant_id, id: e.payload.id });
          break;
        case 'conversation.sla_applied': {
          const { conversation_id, ...p } = e.payload;
          const key = { tenant_id: e.tenant_id, conversation_id };
          slas.patch(key, { ...p, updated_at: e.created_at });
          break;
        }
        case 'conversation.sla_breached': {
          const key = { tenant_id: e.tenant_id, conversation_id: e.payload.conversation_id };
          slas.patch(key, { [DUE[e.payload.target]]: null, updated_at: e.created_at });
          slas.addTo(key, 'breaches', [settledEntry(e.payload.target, e.payload.due_at, e.created_at)]);
          break;
        }
        case 'conversation.sla_met': {
          const key = { tenant_id: e.tenant_id, conversation_id: e.payload.conversation_id };
          slas.patch(key, { [DUE[e.payload.target]]: null, updated_at: e.created_at });
          slas.addTo(key, 'met', [settledEntry(e.payload.target, e.payload.due_at, e.payload.met_at)]);
          break;
        }
        default: {
          const never: never = e;
          throw new Error(`sla projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
