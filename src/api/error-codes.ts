// The error codes of the edge and the layers below the capabilities: HTTP,
// validation, authentication plumbing, idempotency, pagination, the database.
// Each capability declares its own beside its module (CapabilityModule.errors).
import { defineErrors } from '../platform/errors.js';

export const edgeErrors = defineErrors({
  invalid_json: { status: 400, when: 'The body is not valid JSON.' },
  invalid_body: { status: 400, when: 'The body is valid JSON but not an object (`"x"`, `null`, `[]`).' },
  missing_field: { status: 400, when: 'A required field is missing (one entry per field).' },
  unknown_field: { status: 400, when: 'A field the route does not take, in the body or the query; also any field sent to a write that takes no body.' },
  invalid_field: {
    status: 400,
    when: 'A field fails its JSON Schema (one entry per field). Query numbers must be finite; `after_seq` is at most 2^53 − 1; a date-time must be RFC 3339 and readable by JavaScript (no leap second).',
  },
  invalid_text: {
    status: 400,
    when: 'A NUL or an unpaired surrogate in a body string or field name, query value, path segment or header; `field` names where when known.',
  },
  nesting_too_deep: { status: 400, when: 'A body nested deeper than 32 levels.' },
  too_many_values: { status: 400, when: 'A body holding more than 200,000 values.' },
  invalid_query: {
    status: 400,
    when: "A search's or a view's `query` breaks the filter language: an unknown field, an operator the field does not take, a value of the wrong type, groups too deep or too large. One entry per problem (at most 20), each naming its path.",
  },
  invalid_cursor: {
    status: 400,
    when: '`starting_after` is garbled, was minted under another sort or order, or carries a sort key or id its list cannot hold.',
  },
  invalid_idempotency_key: { status: 400, when: 'An Idempotency-Key that is empty, over 255 characters, not printable ASCII, or starts or ends with a space.' },
  request_aborted: { status: 400, when: 'The client stopped sending the body.' },
  seq_ahead_of_log: {
    status: 400,
    when: "A seq the workspace's log has not reached: `as_of_seq` of a past state, or `after_seq` / `to_seq` of the audit export, above the log's head.",
  },
  bad_request: { status: 400, when: 'The request is not readable as HTTP; the connection is closed.' },
  webhook_url_invalid: { status: 400, when: 'A webhook or channel URL that is not an http(s) URL with a host and without credentials.' },
  webhook_url_forbidden: {
    status: 400,
    when: 'A webhook or channel URL whose host resolves to an address outside WEBHOOK_ALLOWLIST (loopback, private, link-local, metadata).',
  },
  webhook_url_unresolvable: { status: 400, when: 'A webhook or channel URL whose host does not resolve.' },
  unauthenticated: { status: 401, when: 'No credentials.' },
  missing_scope: { status: 403, when: 'The credentials lack the scope the route needs; the message names it.' },
  not_found: { status: 404, when: "The thing does not exist, or is another workspace's: one answer for both, malformed ids included." },
  route_not_found: { status: 404, when: 'No route matches the method and path.' },
  request_timeout: { status: 408, when: 'The request was not received within HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS; the connection is closed.' },
  idempotency_key_in_flight: { status: 409, when: 'The same Idempotency-Key while its first request still runs; `Retry-After: 1`.' },
  concurrent_modification: {
    status: 409,
    when: 'The workspace changed under a command, in another process, every time it was tried (EventStoreDB mode: 30 attempts); retry.',
  },
  payload_too_large: { status: 413, when: 'The body is over BODY_LIMIT, or a command would append more than the event store takes at once.' },
  unsupported_media_type: { status: 415, when: 'A body that is not JSON by its `Content-Type`.' },
  unsupported_encoding: { status: 415, when: 'A charset other than UTF-8, or an unknown `Content-Encoding`.' },
  idempotency_key_not_allowed: { status: 400, when: 'An Idempotency-Key on a POST that changes nothing (a render, a search): nothing to make safe to retry.' },
  idempotency_key_reused: { status: 422, when: 'The same Idempotency-Key with another method, path or body.' },
  rate_limited: {
    status: 429,
    when: "A rate limit is used up for its window (or has fewer units left than the request costs: the counts cost one per custom view): the API key's (or signed-in member's), the workspace's, the workspace's expensive routes' (searches, exports, custom views' lists, counts), or on the signed inbound route the channel's. `Retry-After` says when the window ends; the request changed nothing and used no Idempotency-Key. See docs/api-guide.md (Rate limits).",
  },
  headers_too_large: { status: 431, when: "A request line and headers over Node's 16 KiB; the connection is closed." },
  internal_error: { status: 500, when: 'A bug, logged with the request id.' },
  service_unavailable: {
    status: 503,
    when: 'The database went away (a restart, a failover, a cut connection, a pool that cannot get a connection); `Retry-After: 1`. Resend it; a write with the same Idempotency-Key is applied at most once.',
  },
});
