import type { CommandSpec } from '../../commands/command.js';
import { decideCreateSavedReply, decideDeleteSavedReply, decideUpdateSavedReply, type NameHolder, type SavedReplyView } from './saved-replies.decider.js';
import type { SavedReplyEvent } from './saved-replies.events.js';
import { countSavedReplies, findSavedReply, nameHolder, savedReplyView } from './saved-replies.read.js';

export const createSavedReply = (input: { id: string; name: string; body: string }): CommandSpec<{ count: number; holder: NameHolder }, SavedReplyEvent> => ({
  name: 'CreateSavedReply',
  load: async (db, ctx) => ({ count: await countSavedReplies(db, ctx.tenantId), holder: await nameHolder(db, ctx.tenantId, input.name) }),
  decide: (s) => decideCreateSavedReply(input, s),
});

export const updateSavedReply = (input: {
  id: string;
  name?: string;
  body?: string;
}): CommandSpec<{ reply: SavedReplyView | null; holder: NameHolder }, SavedReplyEvent> => ({
  name: 'UpdateSavedReply',
  load: async (db, ctx) => ({
    reply: savedReplyView(await findSavedReply(db, ctx.tenantId, input.id)),
    holder: input.name === undefined ? null : await nameHolder(db, ctx.tenantId, input.name),
  }),
  decide: (s) => decideUpdateSavedReply(input, s),
});

export const deleteSavedReply = (input: { id: string }): CommandSpec<SavedReplyView | null, SavedReplyEvent> => ({
  name: 'DeleteSavedReply',
  load: async (db, ctx) => savedReplyView(await findSavedReply(db, ctx.tenantId, input.id)),
  decide: (r) => decideDeleteSavedReply(input, r),
});
