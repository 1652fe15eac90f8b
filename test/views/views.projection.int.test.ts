// The views projector deletes a member's private views when the member is
// removed, folded into whatever batch the removal lands in: a command's own,
// or a rebuild's, next to those views' own events. Wherever a batch is cut,
// the rows it leaves are those projecting one event at a time leaves.
import { expect } from 'chai';
import { viewsProjector } from '../../src/capabilities/views/views.projection.js';
import { up as deleteViewsOfRemovedMembers } from '../../src/platform/db/migrations/047_views_of_removed_members.js';
import type { NewEvent, StoredEvent } from '../../src/eventstore/envelope.js';
import { Writes } from '../../src/projections/table-batch.js';
import { createTestDb, type TestDb } from '../support/db.js';

const TENANT = '00000000-0000-4000-8000-0000000000aa';
const LEAVING = '00000000-0000-4000-8000-00000000000a';
const STAYING = '00000000-0000-4000-8000-00000000000b';
const id = (n: number) => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
const query = { field: 'state', operator: '=', value: 'open' };
const created = (n: number, visibility: 'private' | 'workspace', memberId: string): NewEvent => ({
  type: 'view.created',
  aggregate_type: 'view',
  aggregate_id: id(n),
  payload: { id: id(n), name: `View ${n}`, query, sort: 'updated_at', order: 'desc', visibility, member_id: memberId },
});
const updated = (n: number, payload: Record<string, unknown>): NewEvent => ({
  type: 'view.updated',
  aggregate_type: 'view',
  aggregate_id: id(n),
  payload: { id: id(n), ...payload },
});

/** The leaving member's views: private ones (one renamed), a workspace view, another's workspace view they made private. */
const history: NewEvent[] = [
  created(1, 'private', LEAVING),
  created(2, 'private', LEAVING),
  created(3, 'workspace', LEAVING),
  created(4, 'workspace', STAYING),
  updated(4, { private: false, visibility: 'private', member_id: LEAVING }),
  updated(1, { private: true, name: 'View 1 renamed' }),
  { type: 'member.removed', aggregate_type: 'member', aggregate_id: LEAVING, payload: { member_id: LEAVING, removed_by: STAYING } },
  updated(3, { private: false, name: 'View 3, still everyone’s' }),
  created(5, 'private', STAYING),
  { type: 'member.erased', aggregate_type: 'member', aggregate_id: LEAVING, payload: { member_id: LEAVING, invite_id: null, erased_by: STAYING } },
];
const stored: StoredEvent[] = history.map((e, i) => ({
  ...e,
  tenant_id: TENANT,
  seq: i + 1,
  id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)).toISOString(),
  metadata: {},
  position: String(i + 1),
}));

describe('views projector: a removed member’s private views go, whatever batch the removal is folded into', function () {
  let t: TestDb;
  before(async () => {
    t = await createTestDb('views_projection');
  });
  after(async () => t.drop());

  /** Projects the log in batches cut at `cuts`, each as the engine sends it (one statement), and reads the views. */
  const project = async (cuts: number[]) => {
    await t.db('views').del();
    const bounds = [0, ...cuts, stored.length];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const batch = stored.slice(bounds[i], bounds[i + 1]).filter((e) => viewsProjector.handles.includes(e.type as never));
      if (batch.length === 0) continue;
      const writes = new Writes();
      viewsProjector.project(batch as never, writes);
      await t.db.transaction((trx) => writes.run(trx));
    }
    return t.db('views').orderBy('id').select('id', 'name', 'visibility', 'owner_member_id');
  };

  it('leaves the same rows one event at a time, in one batch, and cut anywhere in two', async () => {
    const oneAtATime = await project(stored.map((_, i) => i + 1).slice(0, -1));
    expect(oneAtATime).to.deep.equal([
      { id: id(3), name: 'View 3, still everyone’s', visibility: 'workspace', owner_member_id: LEAVING },
      { id: id(5), name: 'View 5', visibility: 'private', owner_member_id: STAYING },
    ]);
    expect(await project([]), 'one batch').to.deep.equal(oneAtATime);
    for (let cut = 1; cut < stored.length; cut++) expect(await project([cut]), `cut after event ${cut}`).to.deep.equal(oneAtATime);
  });

  it('migration 047 deletes what members removed before this kept, and nothing else', async () => {
    await project([]);
    const at = new Date();
    const member = (memberId: string, status: string) => ({
      tenant_id: TENANT,
      id: memberId,
      user_id: memberId,
      email: `${memberId}@example.com`,
      name: 'Someone',
      role: 'agent',
      status,
      joined_at: at,
      updated_at: at,
    });
    await t.db('members').insert([member(LEAVING, 'removed'), member(STAYING, 'active')]);
    // As an earlier version left them: the removed member's private view still there.
    const row = (n: number, visibility: string, owner: string) => ({
      tenant_id: TENANT,
      id: id(n),
      name: `Kept ${n}`,
      query: JSON.stringify(query),
      sort: 'updated_at',
      sort_order: 'desc',
      visibility,
      owner_member_id: owner,
      created_at: at,
      updated_at: at,
    });
    await t.db('views').insert([row(6, 'private', LEAVING), row(7, 'private', STAYING)]);
    await deleteViewsOfRemovedMembers(t.db);
    expect((await t.db('views').orderBy('id').select('id')).map((r) => r.id)).to.deep.equal([id(3), id(5), id(7)]);
  });
});
