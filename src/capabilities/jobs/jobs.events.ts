import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

/** What a job is for. One kind today: the same action on many conversations. */
export const JOB_KINDS = ['conversations.bulk'] as const;

/** Who made a job: a member in person, or an API key (acting as its member). */
export const JOB_CREATOR_TYPES = ['member', 'api_key'] as const;

export const JobCreated = defineEvent({
  type: 'job.created',
  aggregate_type: 'job',
  description:
    "A bulk action was asked for: `action` on `total` conversations, chosen by ids or by a query when it was made (the ids are kept beside the log, not in the event; the query is not kept). Each conversation's change is then its own command, with `{type: 'job', id}` as its actor, followed by `job.completed` or `job.canceled`.",
  payload: payload({
    job_id: Uuid(),
    kind: Type.Union(JOB_KINDS.map((k) => Type.Literal(k))),
    action: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The action, as the request named it: one of assign, team, close, open, snooze, priority, tags_add, tags_remove.',
    }),
    total: Type.Integer({ minimum: 1 }),
    selected_by: Type.Union([Type.Literal('ids'), Type.Literal('query')]),
    created_by: payload({ type: Type.Union(JOB_CREATOR_TYPES.map((t) => Type.Literal(t))), id: Text() }),
  }),
});

export const JobCanceled = defineEvent({
  type: 'job.canceled',
  aggregate_type: 'job',
  description: 'A job was canceled (DELETE /api/jobs/{id}): its items not yet done are `canceled`; one under way when it was finishes.',
  payload: payload({ job_id: Uuid(), canceled_by: payload({ type: Type.Union(JOB_CREATOR_TYPES.map((t) => Type.Literal(t))), id: Text() }) }),
});

export const JobCompleted = defineEvent({
  type: 'job.completed',
  aggregate_type: 'job',
  description: 'Every item of a job has its outcome: how many changed their conversation, were refused, or had nothing to change.',
  payload: payload({
    job_id: Uuid(),
    succeeded: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0 }),
  }),
});

export const jobEvents = [JobCreated, JobCanceled, JobCompleted] as const;
export type JobEvent = EventOf<(typeof jobEvents)[number]>;
export type JobCreator = EventOf<typeof JobCreated>['payload']['created_by'];
