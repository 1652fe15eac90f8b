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
