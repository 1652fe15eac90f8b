// One message parsed off the event loop, within its budget (design invariant
// 20). A message whose full parse runs out of time or heap is parsed again as
// text only (no HTML sanitising, no quote split, no report reading), so it is
// still filed; one that runs out of that budget too is refused for good
// (SMTP 552, HTTP 413), which its sender hears as a bounce. Never a 4xx: the
// same bytes would take as long the next time, and the MTA would retry forever.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { inSharedMemory, OverBudget, type Offload } from '../../platform/offload.js';
import type { ParseMode, ParseResult } from './mime.js';
import type { ParseAnswer } from './parse.worker.js';

/** Refused for good: the message took the whole budget even as text. */
export class TooComplex extends Error {}

/** A message mailparser cannot read at all: refused for good (SMTP 554, HTTP 400), never retried. */
export class Unreadable extends Error {}

// The worker module beside this one, with this one's extension: parse.worker.ts under tsx, .js in dist/ and in
// the tests' transpiled copy of src/.
const here = fileURLToPath(import.meta.url);
const WORKER = pathToFileURL(path.join(path.dirname(here), `parse.worker${path.extname(here)}`));

export async function parseOffLoop(offload: Offload, raw: Buffer, budget: { timeoutMs: number }): Promise<ParseResult> {
  const bytes = inSharedMemory(raw);
  const attempt = async (mode: ParseMode) => {
    const answer = await offload.run<ParseAnswer>(WORKER, 'parse', { raw: bytes, mode }, budget);
    if ('unreadable' in answer) throw new Unreadable(answer.unreadable);
    return revive(answer.parsed);
  };
  try {
    return await attempt('full');
  } catch (e) {
    if (!(e instanceof OverBudget)) throw e;
  }
  try {
    return await attempt('text');
  } catch (e) {
    if (e instanceof OverBudget) throw new TooComplex(e.message);
    throw e;
  }
}

/** A thread's answer arrives structured-cloned: Buffers (in shared memory, parse.worker.ts) as plain Uint8Arrays. */
function revive(p: ParseResult): ParseResult {
  return {
    ...p,
    attachments: p.attachments.map((a) => ({ ...a, content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength) })),
  };
}
