// Projectors as pure folds: events in, rows out, no database.
import { expect } from 'chai';
import { channelsProjector } from '../../src/capabilities/channels/channels.projection.js';
import { contactsProjector } from '../../src/capabilities/contacts/contacts.projection.js';
import { conversationsProjector } from '../../src/capabilities/conversations/conversations.projection.js';
import { keysProjector } from '../../src/capabilities/keys/keys.projection.js';
import { membersProjector } from '../../src/capabilities/members/members.projection.js';
import { webhooksProjector } from '../../src/capabilities/webhooks/webhooks.projection.js';
import { feedProjector } from '../../src/capabilities/feed/feed.projection.js';
import { MemoryTables } from '../support/memory-tables.js';

const C = '00000000-0000-4000-8000-00000000000c';
const CH = '00000000-0000-4000-8000-0000000000c1';
const K = '00000000-0000-4000-8000-0000000000a1';
const author = { type: 'member' as const, id: 'm1' };
const part = (part_id: string, part_type: string, extra: Record<string, unknown> = {}) => ({
  type: 'conversation_part.created',
  aggregate_type: 'conversation',
  aggregate_id: C,
  payload: { conversation_id: C, part_id, part_type, channel_id: CH, author, body: part_type === 'close' ? null : 'text', ...extra },
});

describe('projectors (unit, no database)', () => {
  it('conversations: a created conversation takes the state its parts carry, counts them and keeps each part', () => {
    const t = new MemoryTables([conversationsProjector]).given(
      {
        type: 'conversation.created',
        aggregate_type: 'conversation',
        aggregate_id: C,
        payload: {
          conversation_id: C,
          channel_id: CH,
          contact_id: K,
          external_id: 'th-1',
          subject: null,
          state: 'open',
          assignee_id: null,
          team_id: null,
          source: 'inbound',
        },
      },
      part('p1', 'message', { external_id: 'msg-1' }),
      part('p2', 'assignment', { assignee_id: 'm2' }),
    );
    t.given(part('p3', 'close', { state: 'closed', snoozed_until: null }));
    const conv = t.row('conversations', { id: C })!;
    expect(conv).to.include({ state: 'closed', assignee_id: 'm2', parts_count: 3, external_id: 'th-1', snoozed_until: null });
    expect(conv.updated_at).to.equal(t.rows('conversation_parts').find((p) => p.id === 'p3')!.created_at);
    expect(t.rows('conversation_parts').map((p) => [p.id, p.part_type, p.seq])).to.deep.equal([
      ['p1', 'message', 2],
      ['p2', 'assignment', 3],
      ['p3', 'close', 4],
    ]);
    expect(t.row('conversation_parts', { id: 'p1' })).to.include({ external_id: 'msg-1', author_type: 'member', author_id: 'm1' });
    expect(t.row('conversation_parts', { id: 'p2' })!.details).to.deep.equal({ assignee_id: 'm2' });
  });

  it('members: joining, role changes and removal; an accepted invite is marked accepted', () => {
    const t = new MemoryTables([membersProjector]).given(
      {
        type: 'member.invited',
        aggregate_type: 'invite',
        aggregate_id: 'i1',
        payload: { invite_id: 'i1', email: 'a@x.io', role: 'agent', invited_by: 'm0', expires_at: '2026-02-01T00:00:00.000Z' },
      },
      {
        type: 'member.joined',
        aggregate_type: 'member',
        aggregate_id: 'm1',
        payload: { member_id: 'm1', user_id: 'u1', email: 'a@x.io', name: 'A', role: 'agent', invite_id: 'i1' },
      },
      { type: 'member.role_changed', aggregate_type: 'member', aggregate_id: 'm1', payload: { member_id: 'm1', from: 'agent', to: 'admin' } },
    );
    expect(t.row('invites', { id: 'i1' })).to.include({ status: 'accepted', role: 'agent' });
    expect(t.row('members', { id: 'm1' })).to.include({ role: 'admin', status: 'active', email: 'a@x.io' });
    t.given({ type: 'member.removed', aggregate_type: 'member', aggregate_id: 'm1', payload: { member_id: 'm1', removed_by: 'm0' } });
    expect(t.row('members', { id: 'm1' })).to.include({ status: 'removed', role: 'admin' });
  });

  it('webhooks: an endpoint updated in the batch that created it, then deleted', () => {
    const t = new MemoryTables([webhooksProjector]).given(
      {
        type: 'webhook_endpoint.created',
        aggregate_type: 'webhook_endpoint',
        aggregate_id: 'e1',
        payload: { endpoint_id: 'e1', url: 'https://a', event_names: [], description: '', enabled: true },
      },
      { type: 'webhook_endpoint.updated', aggregate_type: 'webhook_endpoint', aggregate_id: 'e1', payload: { endpoint_id: 'e1', enabled: false } },
    );
    expect(t.row('webhook_endpoints', { id: 'e1' })).to.include({ url: 'https://a', enabled: false });
    t.given({ type: 'webhook_endpoint.deleted', aggregate_type: 'webhook_endpoint', aggregate_id: 'e1', payload: { endpoint_id: 'e1' } });
    expect(t.rows('webhook_endpoints')).to.deep.equal([]);
  });

  it('channels, keys and contacts: creation then changes of only the fields an event names', () => {
    const t = new MemoryTables([channelsProjector, keysProjector, contactsProjector]).given(
      {
        type: 'channel.created',
        aggregate_type: 'channel',
        aggregate_id: CH,
        payload: { channel_id: CH, kind: 'api', name: 'Bridge', source: 'bridge', default_team_id: null },
      },
      { type: 'channel.updated', aggregate_type: 'channel', aggregate_id: CH, payload: { channel_id: CH, webhook_url: 'https://b' } },
      {
        type: 'api_key.created',
        aggregate_type: 'api_key',
        aggregate_id: 'k1',
        payload: { key_id: 'k1', member_id: 'm1', name: 'ci', scopes: ['events:read'] },
      },
      { type: 'api_key.revoked', aggregate_type: 'api_key', aggregate_id: 'k1', payload: { key_id: 'k1', member_id: 'm1', revoked_by: 'm1' } },
      {
        type: 'contact.created',
        aggregate_type: 'contact',
        aggregate_id: K,
        payload: { contact_id: K, external_id: 'x', email: null, name: 'Ann', phone: null, channel_id: CH },
      },
      { type: 'contact.updated', aggregate_type: 'contact', aggregate_id: K, payload: { contact_id: K, email: 'ann@x.io' } },
    );
    expect(t.row('channels', { id: CH })).to.include({ name: 'Bridge', webhook_url: 'https://b' });
    expect(t.row('api_keys', { id: 'k1' })).to.include({ status: 'revoked', name: 'ci' });
    expect(t.row('contacts', { id: K })).to.include({ name: 'Ann', email: 'ann@x.io', external_id: 'x' });
  });

  it('contacts: archive and unarchive, company links made and undone, and a deleted company leaves its contacts', () => {
    const CO1 = '00000000-0000-4000-8000-0000000000b1';
    const CO2 = '00000000-0000-4000-8000-0000000000b2';
    const ev = (type: string, payload: Record<string, unknown>) => ({
      type,
      aggregate_type: 'contact',
      aggregate_id: K,
      payload: { contact_id: K, ...payload },
    });
    const t = new MemoryTables([contactsProjector]).given(
      ev('contact.created', { external_id: 'x', email: 'a@x.io', name: 'Ann', phone: null, custom_attributes: { tier: 'a' }, channel_id: null }),
      ev('contact.archived', {}),
      ev('contact.company_attached', { company_id: CO1 }),
      ev('contact.company_attached', { company_id: CO2 }),
      ev('contact.company_detached', { company_id: CO1 }),
    );
    const row = t.row('contacts', { id: K })!;
    expect(row).to.include({ email: 'a@x.io' });
    expect(row.custom_attributes).to.deep.equal({ tier: 'a' });
    expect(row.archived_at).to.not.equal(null);
    expect(t.rows('contact_companies').map((r) => r.company_id)).to.deep.equal([CO2]);
    t.given(ev('contact.unarchived', {}));
    expect(t.row('contacts', { id: K })!.archived_at).to.equal(null);
    // Links folded in the same batch as the deletion go with it (earlier ones go by a statement the database runs).
    t.given(ev('contact.company_attached', { company_id: CO1 }), {
      type: 'company.deleted',
      aggregate_type: 'company',
      aggregate_id: CO1,
      payload: { id: CO1 },
    });
    expect(t.rows('contact_companies').map((r) => r.company_id)).to.deep.equal([CO2]);
  });

  it('feed: every event, whatever its type, as its envelope', () => {
    const t = new MemoryTables([feedProjector]).given(part('p1', 'note'), {
      type: 'member.removed',
      aggregate_type: 'member',
      aggregate_id: 'm1',
      payload: { member_id: 'm1', removed_by: 'm0' },
    });
    expect(t.rows('feed_events').map((r) => [r.seq, r.type])).to.deep.equal([
      [1, 'conversation_part.created'],
      [2, 'member.removed'],
    ]);
  });
});
