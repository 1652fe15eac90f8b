import type { CommandSpec } from '../../commands/command.js';
import { decideCreateTag, decideDeleteTag, decideRenameTag, type TagView } from './tags.decider.js';
import type { TagEvent } from './tags.events.js';
import { countTags, findTag, findTagByName, tagView, type TagReferences } from './tags.read.js';

export const createTag = (input: { id: string; name: string }): CommandSpec<{ count: number; sameName: TagView | null }, TagEvent> => ({
  name: 'CreateTag',
  load: async (db, ctx) => ({ count: await countTags(db, ctx.tenantId), sameName: tagView(await findTagByName(db, ctx.tenantId, input.name)) }),
  decide: (s) => decideCreateTag(input, s),
});

export const renameTag = (input: { id: string; name: string }): CommandSpec<{ tag: TagView | null; sameName: TagView | null }, TagEvent> => ({
  name: 'RenameTag',
  load: async (db, ctx) => ({ tag: tagView(await findTag(db, ctx.tenantId, input.id)), sameName: tagView(await findTagByName(db, ctx.tenantId, input.name)) }),
  decide: (s) => decideRenameTag(input, s),
});

export const deleteTag = (
  input: { id: string },
  refs: TagReferences,
): CommandSpec<{ tag: TagView | null; conversationIds: string[]; contactIds: string[] }, TagEvent> => ({
  name: 'DeleteTag',
  load: async (db, ctx) => {
    const tag = tagView(await findTag(db, ctx.tenantId, input.id));
    if (!tag) return { tag, conversationIds: [], contactIds: [] };
    return { tag, conversationIds: await refs.conversationIds(db, ctx.tenantId, tag.id), contactIds: await refs.contactIds(db, ctx.tenantId, tag.id) };
  },
  decide: (s) => decideDeleteTag(s.tag, s),
});
