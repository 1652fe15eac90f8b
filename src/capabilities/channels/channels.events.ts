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
  description: "A channel's name or webhook_url changed; only the changed fields are in the payload (webhook_url null: receive-only).",
  payload: payload({ channel_id: Uuid(), name: Type.Optional(Text()), webhook_url: Type.Optional(Nullable(Text())) }),
});

export const ChannelSecretRotated = defineEvent({
  type: 'channel.secret_rotated',
  aggregate_type: 'channel',
  description: 'A channel got a new webhook_secret; the previous one verifies until previous_valid_until.',
  payload: payload({ channel_id: Uuid(), previous_valid_until: Instant() }),
});

export const channelEvents = [ChannelCreated, ChannelUpdated, ChannelSecretRotated] as const;
export type ChannelEvent = EventOf<(typeof channelEvents)[number]>;
