// Custom-view rules as specifications: given the view loaded and who asks,
// when a command, then events or a coded refusal.
import { expect } from 'chai';
import { decider } from '../support/decider-spec.js';
import {
  decideCreateView,
  decideDeleteView,
  decideUpdateView,
  MAX_PRIVATE_VIEWS,
  MAX_WORKSPACE_VIEWS,
  privateViewEvent,
  type Caller,
  type NewView,
  type ViewChanges,
  type ViewTally,
  type ViewView,
} from '../../src/capabilities/views/views.decider.js';

const OWNER = '6f1c1e7a-3b7e-4c7a-9a55-0a1b2c3d4e5f';
const OTHER = '0e9f8a7b-6c5d-4e3f-8a1b-2c3d4e5f6a7b';
const ID = '11111111-2222-4333-8444-555555555555';
const open = { field: 'state', operator: '=', value: 'open' };
const member = (memberId: string, canManageWorkspace = false, isOwner = false): Caller => ({ memberId, canManageWorkspace, isOwner });
const NONE: ViewTally = { workspace: 0, private: 0 };
const view = (over: Partial<ViewView> = {}): ViewView => ({
  id: ID,
  name: 'Mine',
  query: open,
  sort: 'updated_at',
  order: 'desc',
  visibility: 'private',
  ownerMemberId: OWNER,
  ...over,
});
const input = (over: Partial<NewView> = {}): NewView => ({
  id: ID,
  name: 'Mine',
  query: open,
  sort: 'updated_at',
  order: 'desc',
  visibility: 'private',
  ...over,
});

describe('views decider (unit)', () => {
  const create = decider((cmd: { input: NewView; caller: Caller }, s: ViewTally) => decideCreateView(cmd.input, cmd.caller, s));
  /** with room in every quota */
  const update = decider((cmd: { changes: ViewChanges; caller: Caller }, v: ViewView | null) =>
    decideUpdateView(cmd.changes, cmd.caller, { view: v, tally: NONE }),
  );
  const updateCounted = decider((cmd: { changes: ViewChanges; caller: Caller }, s: { view: ViewView; tally: ViewTally }) =>
    decideUpdateView(cmd.changes, cmd.caller, s),
  );
  const remove = decider((caller: Caller, v: ViewView | null) => decideDeleteView(caller, v));

  it('creates a private view for anyone, owned by the caller', () => {
    create
      .given(NONE)
      .when({ input: input(), caller: member(OWNER) })
      .then({ type: 'view.created', aggregate_id: ID, payload: { visibility: 'private', member_id: OWNER, query: open } });
  });

  it('creates a workspace view only with settings:write', () => {
    create
      .given(NONE)
      .when({ input: input({ visibility: 'workspace' }), caller: member(OWNER) })
      .thenRefuses('missing_scope');
    create
      .given(NONE)
      .when({ input: input({ visibility: 'workspace' }), caller: member(OWNER, true) })
      .then({ type: 'view.created', payload: { visibility: 'workspace' } });
  });

  it(`refuses a member's ${MAX_PRIVATE_VIEWS + 1}th private view, while the workspace's views still have room`, () => {
    create
      .given({ workspace: 0, private: MAX_PRIVATE_VIEWS })
      .when({ input: input(), caller: member(OWNER, true) })
      .thenRefuses('limit_reached');
    create
      .given({ workspace: 0, private: MAX_PRIVATE_VIEWS })
      .when({ input: input({ visibility: 'workspace' }), caller: member(OWNER, true) })
      .then({ type: 'view.created', payload: { visibility: 'workspace' } });
    create
      .given({ workspace: MAX_WORKSPACE_VIEWS, private: MAX_PRIVATE_VIEWS - 1 })
      .when({ input: input(), caller: member(OWNER) })
      .then({ type: 'view.created', payload: { visibility: 'private' } });
  });

  it(`refuses the ${MAX_WORKSPACE_VIEWS + 1}st workspace view, whatever private views there are`, () => {
    create
      .given({ workspace: MAX_WORKSPACE_VIEWS, private: 0 })
      .when({ input: input({ visibility: 'workspace' }), caller: member(OWNER, true) })
      .thenRefuses('limit_reached');
    create
      .given({ workspace: MAX_WORKSPACE_VIEWS - 1, private: MAX_PRIVATE_VIEWS })
      .when({ input: input({ visibility: 'workspace' }), caller: member(OWNER, true) })
      .then({ type: 'view.created' });
  });

  it("moves a view to the other quota when it changes kind: made private, to the changer's", () => {
    updateCounted
      .given({ view: view(), tally: { workspace: MAX_WORKSPACE_VIEWS, private: 0 } })
      .when({ changes: { visibility: 'workspace' }, caller: member(OWNER, true) })
      .thenRefuses('limit_reached');
    updateCounted
      .given({ view: view({ visibility: 'workspace' }), tally: { workspace: 0, private: MAX_PRIVATE_VIEWS } })
      .when({ changes: { visibility: 'private' }, caller: member(OTHER, true) })
      .thenRefuses('limit_reached');
    // Other changes leave a view in its quota, full or not.
    updateCounted
      .given({ view: view(), tally: { workspace: MAX_WORKSPACE_VIEWS, private: MAX_PRIVATE_VIEWS } })
      .when({ changes: { name: 'Renamed', visibility: 'private' }, caller: member(OWNER) })
      .then({ type: 'view.updated', payload: { name: 'Renamed' } });
  });

  it("lets an owner holding settings:write delete another member's private view, and nobody else; nor change or read it", () => {
    remove
      .given(view())
      .when(member(OTHER, true, true))
      .then({ type: 'view.deleted', aggregate_id: ID, payload: { id: ID, private: true } });
    remove
      .given(view())
      .when(member(OTHER, false, true))
      .thenRefuses('not_found'); // an owner's key without settings:write
    remove
      .given(view())
      .when(member(OTHER, true, false))
      .thenRefuses('not_found'); // an admin
    update
      .given(view())
      .when({ changes: { name: 'x' }, caller: member(OTHER, true, true) })
      .thenRefuses('not_found');
    remove
      .given(null)
      .when(member(OTHER, true, true))
      .thenRefuses('not_found');
  });

  it("finds nothing of another member's private view (404), whatever the caller's scopes", () => {
    update
      .given(view())
      .when({ changes: { name: 'x' }, caller: member(OTHER, true) })
      .thenRefuses('not_found');
    remove.given(view()).when(member(OTHER, true)).thenRefuses('not_found');
    update
      .given(null)
      .when({ changes: { name: 'x' }, caller: member(OWNER) })
      .thenRefuses('not_found');
  });

  it('records only what changes; a query compares by content, whatever the key order', () => {
    update
      .given(view())
      .when({ changes: { name: 'Mine', query: { value: 'open', operator: '=', field: 'state' }, order: 'desc' }, caller: member(OWNER) })
      .thenNothing();
    update
      .given(view())
      .when({ changes: { name: 'Renamed', sort: 'created_at' }, caller: member(OWNER) })
      .then({ type: 'view.updated', payload: { id: ID, name: 'Renamed', sort: 'created_at' } });
  });

  it("changing, deleting or making a workspace view needs settings:write; made private, it becomes the changer's", () => {
    const shared = view({ visibility: 'workspace' });
    update
      .given(shared)
      .when({ changes: { name: 'x' }, caller: member(OTHER) })
      .thenRefuses('missing_scope');
    remove.given(shared).when(member(OTHER)).thenRefuses('missing_scope');
    update
      .given(view())
      .when({ changes: { visibility: 'workspace' }, caller: member(OWNER) })
      .thenRefuses('missing_scope');
    update
      .given(shared)
      .when({ changes: { visibility: 'private' }, caller: member(OTHER, true) })
      .then({ type: 'view.updated', payload: { visibility: 'private', member_id: OTHER } });
    remove
      .given(shared)
      .when(member(OTHER, true))
      .then({ type: 'view.deleted', payload: { id: ID } });
    remove.given(view()).when(member(OWNER)).then({ type: 'view.deleted' });
  });

  it("marks every event of a private view private (left out of the feed and webhooks), and no workspace view's", () => {
    const [created] = create
      .given(NONE)
      .when({ input: input(), caller: member(OWNER) })
      .then({ type: 'view.created' });
    const [renamed] = update
      .given(view())
      .when({ changes: { name: 'Renamed' }, caller: member(OWNER) })
      .then({ type: 'view.updated', payload: { name: 'Renamed', private: true } });
    const [deleted] = remove
      .given(view())
      .when(member(OWNER))
      .then({ type: 'view.deleted', payload: { private: true } });
    for (const e of [created!, renamed!, deleted!]) expect(privateViewEvent(e), e.type).to.equal(true);

    const shared = view({ visibility: 'workspace' });
    const [made] = create
      .given(NONE)
      .when({ input: input({ visibility: 'workspace' }), caller: member(OWNER, true) })
      .then({ type: 'view.created' });
    const [changed] = update
      .given(shared)
      .when({ changes: { name: 'Team' }, caller: member(OWNER, true) })
      .then({ type: 'view.updated', payload: { private: false } });
    const [gone] = remove
      .given(shared)
      .when(member(OWNER, true))
      .then({ type: 'view.deleted', payload: { private: false } });
    for (const e of [made!, changed!, gone!]) expect(privateViewEvent(e), e.type).to.equal(false);
  });

  it('a private view made a workspace view is told whole; a workspace view made private says only that, its other changes privately', () => {
    const [published] = update
      .given(view({ name: 'Was mine', sort: 'created_at' }))
      .when({ changes: { visibility: 'workspace', order: 'asc' }, caller: member(OWNER, true) })
      .then({
        type: 'view.updated',
        payload: { private: false, visibility: 'workspace', name: 'Was mine', query: open, sort: 'created_at', order: 'asc' },
      });
    expect(privateViewEvent(published!)).to.equal(false);

    const [flip, rest] = update
      .given(view({ visibility: 'workspace' }))
      .when({ changes: { visibility: 'private', name: 'Now secret' }, caller: member(OTHER, true) })
      .then(
        { type: 'view.updated', payload: { private: false, visibility: 'private', member_id: OTHER } },
        { type: 'view.updated', payload: { private: true, name: 'Now secret' } },
      );
    expect(flip!.payload).to.not.have.property('name');
    expect(privateViewEvent(flip!)).to.equal(false);
    expect(privateViewEvent(rest!)).to.equal(true);
  });
});
