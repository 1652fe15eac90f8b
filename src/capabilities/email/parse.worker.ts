// What a parser thread runs (src/platform/offload.ts): one message's bytes in,
// what the channel files out. Nothing of the service is loaded here, only the
// parser (mime.ts and its libraries).
import { parseEmail, type ParseMode, type ParseResult } from './mime.js';
import { offloadTask } from '../../platform/offload.worker.js';

/** A message mailparser cannot read is an answer (`unreadable`), not a thrown error: those mean the thread failed. */
export type ParseAnswer = { parsed: ParseResult } | { unreadable: string };

/**
 * The message arrives in shared memory (mail-parser.ts), and attachments go back the same way: a structured clone
 * of 20 MB takes the event loop that sends or receives it about 100 ms; sharing takes none.
 */
export const parse = offloadTask(async (input: { raw: Uint8Array; mode: ParseMode }): Promise<ParseAnswer> => {
  let parsed: ParseResult;
  try {
    parsed = await parseEmail(Buffer.from(input.raw.buffer, input.raw.byteOffset, input.raw.byteLength), input.mode);
  } catch (e) {
    return { unreadable: e instanceof Error ? e.message : String(e) };
  }
  return { parsed: { ...parsed, attachments: parsed.attachments.map((a) => ({ ...a, content: shared(a.content) })) } };
});

function shared(b: Buffer): Buffer {
  const copy = Buffer.from(new SharedArrayBuffer(b.length));
  b.copy(copy);
  return copy;
}
