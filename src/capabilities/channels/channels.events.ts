import { defineEvent, Instant, Nullable, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

export const ChannelCreated = defineEvent({
  type: 'channel.created',
  aggregate_type: 'channel',
  description:
    'A channel was created for a source: an `api` bridge, or an `email` channel whose `address` is its support address (its source). Its webhook_secret and DKIM private key are sealed beside the log, never in it.',
  payload: payload({
    channel_id: Uuid(),
    kind: Type.Union([Type.Literal('api'), Type.Literal('email')]),
    name: Text(),
    source: Text(),
    default_team_id: Nullable(Text()),
    address: Type.Optional(Text()),
    dkim_selector: Type.Optional(Text()),
  }),
});

export const ChannelUpdated = defineEvent({
  type: 'channel.updated',
  aggregate_type: 'channel',
  description:
    "A channel's name, webhook_url or `enabled` changed; only the changed fields are in the payload (webhook_url null: receive-only). A disabled channel's signed routes answer the same empty 401 as an unknown channel, and nothing is sent to its bridge until it is enabled again.",
  payload: payload({ channel_id: Uuid(), name: Type.Optional(Text()), webhook_url: Type.Optional(Nullable(Text())), enabled: Type.Optional(Type.Boolean()) }),
});

export const ChannelSecretRotated = defineEvent({
  type: 'channel.secret_rotated',
  aggregate_type: 'channel',
  description:
    'A channel got a new webhook_secret. The one it replaces verifies until previous_valid_until (the rotation time itself when asked for no grace); every secret retired by an earlier rotation stopped verifying at once.',
  payload: payload({ channel_id: Uuid(), previous_valid_until: Instant() }),
});

export const ChannelDeleted = defineEvent({
  type: 'channel.deleted',
  aggregate_type: 'channel',
  description:
    'A channel was deleted: its secrets are gone, its signed routes answer the same empty 401 as an unknown channel, and nothing more is sent to its bridge. Its conversations stay, naming it.',
  payload: payload({ channel_id: Uuid() }),
});

export const channelEvents = [ChannelCreated, ChannelUpdated, ChannelSecretRotated, ChannelDeleted] as const;
export type ChannelEvent = EventOf<(typeof channelEvents)[number]>;
