import { defineEvent, Instant, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

/** Who uploaded a file: a member in person, or an API key (acting as its member). */
export const UPLOADER_TYPES = ['member', 'api_key'] as const;

export const UploadCreated = defineEvent({
  type: 'upload.created',
  aggregate_type: 'upload',
  description:
    "A file was uploaded, to be attached to a reply, a note or a new conversation (`upload_ids`) before `expires_at`. Its name and bytes are not in the log: they are kept beside it, sealed under the upload's own data key, which the part's redaction or its contact's erasure destroys once it is attached, and its expiry destroys when it is attached to nothing. `content_type` is what the bytes are (sniffed), not what the client said.",
  payload: payload({
    upload_id: Uuid(),
    content_type: Text(),
    size: Type.Integer({ minimum: 0 }),
    expires_at: Instant(),
    created_by: payload({ type: Type.Union(UPLOADER_TYPES.map((t) => Type.Literal(t))), id: Text() }),
  }),
});

export const UploadAttached = defineEvent({
  type: 'upload.attached',
  aggregate_type: 'upload',
  description:
    "An upload was attached to a part (a reply's, a note's or a new conversation's `upload_ids`), in the same command as the part's `conversation_part.created`: it is the part's from now on, never expires, and goes with the part's redaction and its contact's erasure. Ids only.",
  payload: payload({ upload_id: Uuid(), conversation_id: Uuid(), part_id: Uuid() }),
});

export const UploadExpired = defineEvent({
  type: 'upload.expired',
  aggregate_type: 'upload',
  description: 'An upload attached to nothing by its `expires_at` was deleted: its data key and bytes were destroyed in the same transaction. Ids only.',
  payload: payload({ upload_id: Uuid() }),
});

export const uploadEvents = [UploadCreated, UploadAttached, UploadExpired] as const;
export type UploadEvent = EventOf<(typeof uploadEvents)[number]>;
export type Uploader = EventOf<typeof UploadCreated>['payload']['created_by'];
