// Typed errors with a code. One middleware (src/api/error-handler.ts) renders
// them as the error envelope; domain code throws them without knowing HTTP.
export interface ErrorEntry {
  code: string;
  message: string;
  field?: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly extra: ErrorEntry[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  entries(): ErrorEntry[] {
    const first: ErrorEntry = { code: this.code, message: this.message };
    if (this.field) first.field = this.field;
    return [first, ...this.extra];
  }
}

export class BadRequest extends AppError {
  constructor(code: string, message: string, field?: string) {
    super(400, code, message, field);
  }
}

export class ValidationFailed extends AppError {
  constructor(errors: ErrorEntry[]) {
    const [first, ...rest] = errors;
    super(400, first?.code ?? 'validation_failed', first?.message ?? 'invalid request', first?.field, rest);
  }
}

export class Unauthorized extends AppError {
  constructor(code = 'unauthorized', message = 'Authentication is required: send a valid API key or session cookie.') {
    super(401, code, message);
  }
}

export class Forbidden extends AppError {
  constructor(code: string, message: string) {
    super(403, code, message);
  }
}

export class NotFound extends AppError {
  constructor(what = 'resource', code = 'not_found') {
    super(404, code, `The ${what} was not found.`);
  }
}

export class Conflict extends AppError {
  constructor(code: string, message: string, headers: Record<string, string> = {}) {
    super(409, code, message, undefined, [], headers);
  }
}

/** The thing existed and is gone for good (an erased contact, an expired export): a retry will not bring it back. */
export class Gone extends AppError {
  constructor(code: string, message: string) {
    super(410, code, message);
  }
}

export class Unprocessable extends AppError {
  constructor(code: string, message: string, field?: string) {
    super(422, code, message, field);
  }
}

/**
 * The database (or the event store) is not reachable right now: nothing is wrong
 * with the request, and retrying it after `Retry-After` seconds, with the same
 * Idempotency-Key for a write, is safe whether or not the first try committed.
 */
export class ServiceUnavailable extends AppError {
  constructor(retryAfterSeconds = 1) {
    super(
      503,
      'service_unavailable',
      'The service cannot reach its database right now. Retry after Retry-After seconds; a write retried with the same Idempotency-Key is applied at most once.',
      undefined,
      [],
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/**
 * One error code a client can receive: its status (or statuses) and when. Codes
 * are declared once, in a catalogue like the event catalogue: the edge's own in
 * src/api/error-codes.ts, each capability's in its module (CapabilityModule.errors).
 * The catalogue feeds the OpenAPI document, docs/errors.md, and the checks that
 * every code the code can raise, and every code a test saw, is declared.
 */
export interface ErrorCodeDef {
  status: number | readonly number[];
  /** when a client gets it, in a sentence or two */
  when: string;
}

export type ErrorCodes = Readonly<Record<string, ErrorCodeDef>>;

export const defineErrors = <const T extends ErrorCodes>(codes: T): T => codes;

/** Every code with its statuses and the texts of whoever declared it (a code may be raised by several capabilities). */
export class ErrorCatalogue {
  private readonly codes = new Map<string, { statuses: Set<number>; when: { by: string; text: string }[] }>();

  constructor(declared: readonly { by: string; codes: ErrorCodes }[]) {
    for (const { by, codes } of declared) {
      for (const [code, def] of Object.entries(codes)) {
        const entry = this.codes.get(code) ?? { statuses: new Set<number>(), when: [] };
        for (const s of [def.status].flat()) entry.statuses.add(s);
        entry.when.push({ by, text: def.when });
        this.codes.set(code, entry);
      }
    }
  }

  has(code: string, status?: number): boolean {
    const e = this.codes.get(code);
    return e !== undefined && (status === undefined || e.statuses.has(status));
  }

  /** Codes in alphabetical order, with their statuses (ascending) and who declared each text. */
  list(): { code: string; statuses: number[]; when: { by: string; text: string }[] }[] {
    return [...this.codes.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, e]) => ({ code, statuses: [...e.statuses].sort((a, b) => a - b), when: e.when }));
  }

  /** The codes a status can carry. */
  ofStatus(status: number): string[] {
    return this.list()
      .filter((e) => e.statuses.includes(status))
      .map((e) => e.code);
  }
}
