// The peer of the reply row: a command endpoint in the shape of emmett's
// Express + PostgreSQL web API sample, written here with emmett as a library.
// An Express app whose route validates the body, runs emmett's CommandHandler
// (read the conversation's stream, fold it, decide, append with the expected
// stream version, retry on a version conflict) over
// @event-driven-io/emmett-postgresql's event store, with an inline pongo
// projection keeping a read-model document per conversation up to date in the
// append's transaction. One stream per conversation.
//
// Started as a daemon with the ids of the conversations to serve: each is
// started once (ConversationStarted) before the daemon says it is ready, so
// the load meets the same pool of existing conversations as ours does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import pg from 'pg';
import {
  CommandHandler,
  EmmettError,
  IllegalStateError,
  NotFoundError,
  ValidationError,
  isExpectedVersionConflictError,
  projections,
  type Event,
} from '@event-driven-io/emmett';
import { getPostgreSQLEventStore, pongoSingleStreamProjection } from '@event-driven-io/emmett-postgresql';
import { daemon } from '../lib/child.js';

export interface PeerInput {
  /** a database of its own (emmett's tables and the pongo collection) */
  url: string;
  /** conversation ids to start before answering ready */
  conversations: string[];
  /** pg pool size (the service's pool is 20) */
  pool: number;
}

// ---- events, state, decisions (the sample's shape: one module of pure functions)

type ConversationStarted = Event<'ConversationStarted', { conversationId: string; subject: string; startedAt: string }>;
type ReplyAdded = Event<
  'ReplyAdded',
  { conversationId: string; partId: string; messageType: 'comment' | 'note'; body: string; author: string; addedAt: string }
>;
type ConversationEvent = ConversationStarted | ReplyAdded;

type Conversation = { status: 'absent' } | { status: 'open'; replies: number };

const initialState = (): Conversation => ({ status: 'absent' });

const evolve = (state: Conversation, { type }: ConversationEvent): Conversation => {
  switch (type) {
    case 'ConversationStarted':
      return { status: 'open', replies: 0 };
    case 'ReplyAdded':
      return state.status === 'open' ? { ...state, replies: state.replies + 1 } : state;
  }
};

const start = (c: { conversationId: string; subject: string; now: Date }, state: Conversation): ConversationStarted => {
  if (state.status !== 'absent') throw new IllegalStateError('conversation already started');
  return { type: 'ConversationStarted', data: { conversationId: c.conversationId, subject: c.subject, startedAt: c.now.toISOString() } };
};

const reply = (
  c: { conversationId: string; partId: string; messageType: 'comment' | 'note'; body: string; author: string; now: Date },
  state: Conversation,
): ReplyAdded => {
  if (state.status === 'absent') throw new NotFoundError({ id: c.conversationId, type: 'conversation' });
  return {
    type: 'ReplyAdded',
    data: { conversationId: c.conversationId, partId: c.partId, messageType: c.messageType, body: c.body, author: c.author, addedAt: c.now.toISOString() },
  };
};

const handle = CommandHandler<Conversation, ConversationEvent>({
  evolve,
  initialState,
  mapToStreamId: (id) => `conversation-${id}`,
  retry: { onVersionConflict: true },
});

// ---- the read model: one document per conversation, updated inline

type ConversationDetails = {
  subject: string;
  status: 'open';
  partsCount: number;
  lastPart: { id: string; messageType: string; body: string; author: string } | null;
  createdAt: string;
  updatedAt: string;
};

const conversationDetails = pongoSingleStreamProjection<ConversationDetails, ConversationEvent>({
  collectionName: 'conversation_details',
  canHandle: ['ConversationStarted', 'ReplyAdded'],
  evolve: (doc: ConversationDetails | null, { type, data }: ConversationEvent): ConversationDetails | null => {
    if (type === 'ConversationStarted')
      return { subject: data.subject, status: 'open', partsCount: 0, lastPart: null, createdAt: data.startedAt, updatedAt: data.startedAt };
    if (!doc) return null;
    return {
      ...doc,
      partsCount: doc.partsCount + 1,
      lastPart: { id: data.partId, messageType: data.messageType, body: data.body, author: data.author },
      updatedAt: data.addedAt,
    };
  },
});

// ---- the web API

const problem = (res: Response, status: number, detail: string) =>
  res.status(status).type('application/problem+json').send({ status, title: http.STATUS_CODES[status], detail });

daemon<PeerInput, { url: string }>(async (input) => {
  const pool = new pg.Pool({ connectionString: input.url, max: input.pool });
  const eventStore = getPostgreSQLEventStore(input.url, {
    connectionOptions: { pool },
    schema: { autoMigration: 'CreateOrUpdate' },
    projections: projections.inline([conversationDetails]),
  });
  await eventStore.schema.migrate();

  // The pool of conversations the load spreads over, started through the same handler. The first one
  // alone: pongo creates the collection's table on first use, and concurrent first uses race on it.
  const startOne = (id: string) => handle(eventStore, id, (state) => start({ conversationId: id, subject: `Order ${id.slice(0, 8)}`, now: new Date() }, state));
  let next = 1;
  if (input.conversations[0] !== undefined) await startOne(input.conversations[0]);
  const starter = async () => {
    for (;;) {
      const id = input.conversations[next++];
      if (id === undefined) return;
      await startOne(id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, starter));

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '256kb' }));
  app.post('/api/conversations/:id/reply', (req: Request<{ id: string }>, res: Response, next: NextFunction) => {
    void (async () => {
      const body = req.body as { body?: unknown; message_type?: unknown } | undefined;
      if (typeof body?.body !== 'string' || body.body.length === 0 || (body.message_type !== 'comment' && body.message_type !== 'note')) {
        throw new ValidationError('body (a non-empty string) and message_type (comment or note) are required');
      }
      const conversationId = req.params.id;
      const partId = randomUUID();
      const { nextExpectedStreamVersion } = await handle(eventStore, conversationId, (state) =>
        reply(
          { conversationId, partId, messageType: body.message_type as 'comment' | 'note', body: body.body as string, author: 'agent', now: new Date() },
          state,
        ),
      );
      res
        .status(201)
        .setHeader('ETag', `W/"${nextExpectedStreamVersion}"`)
        .location(`/api/conversations/${conversationId}/parts/${partId}`)
        .send({ id: partId, conversation_id: conversationId });
    })().catch(next);
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (isExpectedVersionConflictError(err)) return problem(res, 412, (err as Error).message);
    if (err instanceof EmmettError) return problem(res, err.errorCode, err.message);
    return problem(res, 500, err instanceof Error ? err.message : String(err));
  });

  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ready: { url: `http://127.0.0.1:${port}` },
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await eventStore.close();
      await pool.end().catch(() => undefined);
    },
  };
});
