import type { Projector } from '../../projections/projector.js';

const STATE_KEYS = ['state', 'snoozed_until', 'assignee_id', 'team_id'] as const;

export const conversationsProjector: Projector = {
  name: 'conversations',
  handles: ['conversation.created', 'conversation_part.created'],
  tables: ['conversation_parts', 'conversations'],
  async project(db, events) {
    for (const e of events) {
      const p = e.payload as Record<string, any>;
      if (e.type === 'conversation.created') {
        await db('conversations')
          .insert({
            tenant_id: e.tenant_id,
            id: p.conversation_id,
            channel_id: p.channel_id,
            contact_id: p.contact_id,
            external_id: p.external_id ?? null,
            subject: p.subject ?? null,
            state: p.state,
            assignee_id: p.assignee_id ?? null,
            team_id: p.team_id ?? null,
            parts_count: 0,
            created_at: e.created_at,
            updated_at: e.created_at,
            last_part_at: e.created_at,
          })
          .onConflict(['tenant_id', 'id'])
          .merge();
        continue;
      }
      const { conversation_id, part_id, part_type, channel_id: _c, author, body, external_id, attachments, ...details } = p;
      await db('conversation_parts')
        .insert({
          tenant_id: e.tenant_id,
          id: part_id,
          conversation_id,
          seq: e.seq,
          part_type,
          body: body ?? null,
          author_type: author.type,
          author_id: author.id,
          external_id: external_id ?? null,
          attachments: JSON.stringify(attachments ?? []),
          details: JSON.stringify(details),
          created_at: e.created_at,
        })
        .onConflict(['tenant_id', 'id'])
        .ignore();
      const changes: Record<string, unknown> = {};
      for (const k of STATE_KEYS) if (k in p) changes[k] = p[k];
      await db('conversations')
        .where({ tenant_id: e.tenant_id, id: conversation_id })
        .update({ ...changes, parts_count: db.raw('parts_count + 1'), updated_at: e.created_at, last_part_at: e.created_at });
    }
  },
};
