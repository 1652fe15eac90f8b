// The one error mapper: every coded error leaves as
// {"type":"error.list","request_id":"...","errors":[{"code","message","field"}]}.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { AppError, ServiceUnavailable, type ErrorEntry } from '../platform/errors.js';
import { isDatabaseUnavailable } from '../platform/db/unavailable.js';
import { contextOf } from './context.js';

export function sendErrors(res: Response, status: number, requestId: string, errors: ErrorEntry[], headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json({ type: 'error.list', request_id: requestId, errors });
}

/** Body-parser failures carry a `type`; map them to client errors, never a 500. */
function fromBodyParser(err: { type?: string; status?: number }): AppError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new AppError(413, 'payload_too_large', 'The request body is larger than the service accepts.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, 'unsupported_encoding', 'The request body encoding is not supported.');
    case 'request.aborted':
      return new AppError(400, 'request_aborted', 'The request was aborted by the client.');
    default:
      return err.status && err.status >= 400 && err.status < 500 ? new AppError(err.status, 'bad_request', 'The request could not be read.') : null;
  }
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const ctx = contextOf(req);
  const known = err instanceof AppError ? err : fromBodyParser(err as { type?: string });
  if (res.headersSent) {
    ctx.log.error({ err }, 'error after the answer started');
    return;
  }
  if (known) {
    sendErrors(res, known.status, ctx.requestId, known.entries(), known.headers);
    return;
  }
  // A database that is restarting, failing over or cut off is no bug in the request:
  // 503 with Retry-After, which tells the client a retry is safe and when to make it.
  if (isDatabaseUnavailable(err)) {
    ctx.log.warn({ err: { message: (err as Error).message, code: (err as { code?: string }).code } }, 'database unavailable');
    const e = new ServiceUnavailable();
    sendErrors(res, e.status, ctx.requestId, e.entries(), e.headers);
    return;
  }
  ctx.log.error({ err }, 'unhandled error');
  sendErrors(res, 500, ctx.requestId, [{ code: 'internal_error', message: 'Something went wrong on our side. Quote the request_id when reporting it.' }]);
};

export const notFoundHandler: RequestHandler = (req, res) => {
  sendErrors(res, 404, contextOf(req).requestId, [{ code: 'route_not_found', message: `No route matches ${req.method} ${req.path}.` }]);
};

/**
 * The server's `clientError` handler: a request Node cannot parse (headers over
 * its limit, broken HTTP, the headers or request timeout) gets the same envelope
 * instead of Node's bare status line, under the same rule as Node's default:
 * only when no answer is being written on the connection; then it is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const [status, code, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request line or headers are larger than the service accepts.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request_timeout', 'The request was not received in time.']
          : [400, 'bad_request', 'The request is not valid HTTP.'];
    const requestId = randomUUID();
    const body = JSON.stringify({ type: 'error.list', request_id: requestId, errors: [{ code, message }] });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
