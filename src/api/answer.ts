// What a route answers: its own module, so that the request context (which carries
// an answer sink) and the route definitions both name it without importing each other.
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A body written as it is produced, instead of `body` (a download): text or
   * bytes, written with back-pressure; Content-Type from `headers`, else JSON.
   * GET routes only (Idempotency-Key stores whole bodies). The producer runs
   * after the handler returned: it enters its tenant scope itself.
   */
  stream?: AsyncIterable<string | Buffer>;
}
