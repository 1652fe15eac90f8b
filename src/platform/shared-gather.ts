// Bytes that arrive in chunks (an SMTP message's DATA), gathered into shared
// memory that other threads read without a copy: the SMTP receiver's thread
// gathers a message here, the event loop files it and the parser's threads read
// it, and none of them copies the whole (one copy of a 20 MB message in a
// single task, Buffer.concat or a structured clone to a thread, held a thread
// for tens of ms).

/** What gathering cost the thread that gathers: bytes it copied, and how many times it grew a buffer. */
export interface GatherStats {
  bytes: number;
  grows: number;
}

/** A SharedArrayBuffer that grows in place up to its maxByteLength (ES2024; Node 20's V8 has it, the ES2022 typings do not). */
type GrowableShared = SharedArrayBuffer & { grow(n: number): void };
const growableShared = (max: number) =>
  new (SharedArrayBuffer as unknown as new (length: number, o: { maxByteLength: number }) => GrowableShared)(0, { maxByteLength: max });

/** How far ahead of the bytes gathered so far the buffer is grown: as far as it holds, up to this. */
const RUNWAY_MAX = 4 * 1024 * 1024;
const runway = (length: number) => Math.min(length, RUNWAY_MAX);

/**
 * Each chunk is copied once, where it ends up. The buffer grows in place and ahead of the bytes, by as much as it
 * holds up to RUNWAY_MAX (a grow is a system call: one a chunk was 320 for 20 MB, this is about 20). What is grown
 * ahead of the bytes is never more than the bytes themselves nor more than RUNWAY_MAX: a message's memory is at
 * most twice its size, and 4 MiB past it, while it arrives.
 */
export class SharedGather {
  private readonly shared: GrowableShared;
  /** a view that follows the buffer's length as it grows */
  private readonly view: Uint8Array;
  private length = 0;

  constructor(
    private readonly max: number,
    private readonly stats: GatherStats = { bytes: 0, grows: 0 },
  ) {
    this.shared = growableShared(max);
    this.view = new Uint8Array(this.shared);
  }

  /** Appends `chunk`; false (and nothing kept) when it would take the bytes past the maximum. */
  append(chunk: Uint8Array): boolean {
    const end = this.length + chunk.length;
    if (end > this.max) return false;
    if (end > this.shared.byteLength) this.grow(end);
    this.view.set(chunk, this.length);
    this.length = end;
    this.stats.bytes += chunk.length;
    return true;
  }

  /** The bytes gathered, in the shared memory (no copy). */
  bytes(): Buffer {
    return Buffer.from(this.shared, 0, this.length);
  }

  private grow(end: number): void {
    const to = Math.min(this.max, end + runway(end));
    if (to <= this.shared.byteLength) return;
    this.shared.grow(to);
    this.stats.grows++;
  }
}
