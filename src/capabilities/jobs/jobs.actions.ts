// The actions a bulk job applies, one conversation at a time, each as the
// command a teammate's own request would be (conversations' own specs): the
// same rules, the same events, the same refusals. A request names exactly one.
import { Type, type Static } from '@sinclair/typebox';
import type { CommandSpec } from '../../commands/command.js';
import type { NewEvent } from '../../eventstore/envelope.js';
import { conversationActionFields, conversationActionSpec, type Author } from '../conversations/index.js';

export const BulkActionSchema = Type.Object(
  {
    ...conversationActionFields,
    open: Type.Optional(Type.Literal(true)),
    snooze: Type.Optional(Type.String({ format: 'date-time', description: 'Snooze until then.' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, description: 'Exactly one action.' },
);
export type BulkAction = Static<typeof BulkActionSchema>;

/** The command that applies `action` to one conversation (the schema allows only keys conversations' actions have). */
export const actionSpec = (action: BulkAction, c: { conversationId: string; partId: string; author: Author; now: Date }): CommandSpec<any, NewEvent> =>
  conversationActionSpec(action, c)!;
