// Calling the API from TypeScript with openapi-fetch and the types generated
// from docs/openapi.json (schema.d.ts, `npm run openapi`). Paths, parameters,
// bodies and answers are all checked by the compiler.
//
//   SERVICE_URL=http://127.0.0.1:3000 SERVICE_KEY=svc_… CHANNEL_ID=… node --import tsx docs/client/example.ts
//
// The key needs conversations:read and conversations:write; CHANNEL_ID is an api channel of its workspace.
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Conversation = components['schemas']['Conversation'];
type ErrorList = components['schemas']['ErrorList'];

/** Why a call failed, from the error envelope every 4xx and 5xx carries. */
const why = (e: ErrorList) => e.errors.map((x) => `${x.code}: ${x.message}`).join('; ');

export async function example(baseUrl: string, key: string, channelId: string) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

  // Start a conversation; the Idempotency-Key makes the call safe to retry.
  const started = await api.POST('/api/conversations', {
    params: { header: { 'Idempotency-Key': `example-${Date.now()}` } },
    body: { channel_id: channelId, body: 'Hello from openapi-fetch', contact: { external_id: 'example-contact', name: 'Ada' } },
  });
  if (started.error) throw new Error(why(started.error));
  const conversation = started.data; // ConversationWithParts: its parts included

  // Reply, then close it.
  const reply = await api.POST('/api/conversations/{id}/reply', {
    params: { path: { id: conversation.id } },
    body: { body: 'It ships today.', message_type: 'comment' },
  });
  if (reply.error) throw new Error(why(reply.error));
  const closed = await api.POST('/api/conversations/{id}/parts', { params: { path: { id: conversation.id } }, body: { message_type: 'close' } });
  if (closed.error) throw new Error(why(closed.error));

  // List closed conversations, following the cursor.
  const listed: Conversation[] = [];
  let startingAfter: string | undefined;
  do {
    const page = await api.GET('/api/conversations', { params: { query: { state: 'closed', per_page: 50, starting_after: startingAfter } } });
    if (page.error) throw new Error(why(page.error));
    listed.push(...page.data.data);
    startingAfter = page.data.pages.next?.starting_after;
  } while (startingAfter);

  // An error is typed too: the envelope, with its code.
  const missing = await api.GET('/api/conversations/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });

  return {
    conversation: conversation.id,
    parts: conversation.parts.length + 2,
    reply: reply.data.part_type,
    state: closed.data.conversation.state,
    closed: listed.map((c) => c.id),
    missing: missing.error?.errors[0]?.code,
  };
}

// Run directly: print what happened.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { SERVICE_URL = 'http://127.0.0.1:3000', SERVICE_KEY, CHANNEL_ID } = process.env;
  if (!SERVICE_KEY || !CHANNEL_ID) throw new Error('set SERVICE_KEY and CHANNEL_ID');
  console.log(JSON.stringify(await example(SERVICE_URL, SERVICE_KEY, CHANNEL_ID), null, 2));
}
