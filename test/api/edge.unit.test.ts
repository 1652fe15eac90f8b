// The pure pieces of the edge: the text guard, cursor key checks, the
// Idempotency-Key format, the error serializer and the HTTP timeout settings.
import type { Request } from 'express';
import { expect } from 'chai';
import { assertStorable, assertStorableRequest, isStorableText, MAX_JSON_DEPTH } from '../../src/api/validation.js';
import { isCursorNumber, isCursorTimestamp } from '../../src/api/pagination/cursor.js';
import { KEY_FORMAT } from '../../src/api/idempotency/idempotency.js';
import { serializeError } from '../../src/platform/logger.js';
import { AppError } from '../../src/platform/errors.js';
import { ConfigError, loadConfig } from '../../src/config.js';

function refusal(fn: () => void): { status: number; code: string; field?: string } | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { status: e.status, code: e.code, ...(e.field ? { field: e.field } : {}) };
  }
}

describe('text guard', () => {
  it('tells storable text from NULs and unpaired surrogates', () => {
    for (const ok of ['', 'plain', 'émoji 😀', '\ud83d\ude00', 'tab\tnew\nline', '\uffff']) expect(isStorableText(ok), JSON.stringify(ok)).to.equal(true);
    for (const bad of ['\u0000', 'a\u0000', '\ud800', 'a\ud800b', '\udc00', 'x\udc00', '\ude00\ud83d', '\ud83d\ud83d\ude00\ud800']) {
      expect(isStorableText(bad), JSON.stringify(bad)).to.equal(false);
    }
  });

  it('names the field of a bad string, the containing object of a bad key', () => {
    expect(refusal(() => assertStorable({ contact: { name: 'a\u0000' } }))).to.deep.equal({ status: 400, code: 'invalid_text', field: 'contact.name' });
    expect(refusal(() => assertStorable({ attachments: [{ url: 'x' }, { url: '\ud800' }] }))).to.deep.equal({
      status: 400,
      code: 'invalid_text',
      field: 'attachments.1.url',
    });
    expect(refusal(() => assertStorable({ contact: { ['k\u0000']: 1 } }))).to.deep.equal({ status: 400, code: 'invalid_text', field: 'contact' });
    expect(refusal(() => assertStorable({ ['\udc00']: 1 }))).to.deep.equal({ status: 400, code: 'invalid_text' });
    expect(refusal(() => assertStorable({ a: [1, true, null, 'ok', { b: 'fine 😀' }] }))).to.equal(null);
  });

  it('bounds nesting without recursion, so a very deep value is a 400', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(refusal(() => assertStorable(deep))?.code).to.equal('nesting_too_deep');
    let ok: unknown = 'leaf';
    for (let i = 0; i < MAX_JSON_DEPTH; i++) ok = { a: ok };
    expect(refusal(() => assertStorable(ok))).to.equal(null);
  });

  it('bounds how many values one body holds', () => {
    expect(refusal(() => assertStorable(new Array(300_000).fill(0)))?.code).to.equal('too_many_values');
  });

  it('checks path parameters, query values and header values of a request', () => {
    const req = (over: Partial<Record<'params' | 'query' | 'headers' | 'body', unknown>>) =>
      ({ params: {}, query: {}, headers: {}, body: undefined, ...over }) as unknown as Request;
    expect(refusal(() => assertStorableRequest(req({ params: { id: 'a\u0000' } })))).to.deep.equal({ status: 400, code: 'invalid_text', field: 'id' });
    expect(refusal(() => assertStorableRequest(req({ query: { state: ['open', '\ud800'] } })))).to.deep.equal({
      status: 400,
      code: 'invalid_text',
      field: 'state.1',
    });
    expect(refusal(() => assertStorableRequest(req({ headers: { 'x-service-workspace': 'w\u0000' } })))).to.deep.equal({
      status: 400,
      code: 'invalid_text',
      field: 'x-service-workspace',
    });
    expect(refusal(() => assertStorableRequest(req({ body: { name: '\u0000' } })))).to.deep.equal({ status: 400, code: 'invalid_text', field: 'name' });
    expect(refusal(() => assertStorableRequest(req({ params: { id: 'x' }, query: { a: 'b' }, headers: { host: 'h' }, body: Buffer.from([0]) })))).to.equal(
      null,
    );
  });
});

describe('cursor sort keys', () => {
  it('takes only strict ISO-8601 UTC instants Postgres accepts and that round-trip', () => {
    for (const ok of [
      '2024-01-01T00:00:00Z',
      '2024-01-01T00:00:00.123Z',
      '2024-02-29T23:59:59.999999Z',
      '0001-01-01T00:00:00Z',
      '0099-06-01T12:00:00Z',
      '9999-12-31T23:59:59.999999Z',
      new Date().toISOString(),
    ]) {
      expect(isCursorTimestamp(ok), ok).to.equal(true);
    }
    for (const bad of [
      '1',
      '2024',
      '2024-01-01',
      '-271821-04-20T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '10000-01-01T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-01-00T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T00:60:00Z',
      '2024-01-01T00:00:60Z',
      '2024-01-01T00:00:00.1234567Z',
      '2024-01-01T00:00:00+00:00',
      '2024-01-01 00:00:00Z',
      "2024-01-01T00:00:00Z' OR 1=1",
      'infinity',
      '',
      20240101,
      null,
    ]) {
      expect(isCursorTimestamp(bad), String(bad)).to.equal(false);
    }
  });

  it('takes only non-negative safe integers as number keys', () => {
    for (const ok of [0, 1, 42, Number.MAX_SAFE_INTEGER]) expect(isCursorNumber(ok)).to.equal(true);
    for (const bad of [-1, 1.5, 1e300, -1e300, 2 ** 53, 2 ** 63, NaN, Infinity, '1', null]) expect(isCursorNumber(bad), String(bad)).to.equal(false);
  });
});

describe('Idempotency-Key format', () => {
  it('allows printable ASCII with inner spaces, never a space at either end or a control character', () => {
    for (const ok of ['a', 'reply-1', 'a b', 'x  y z', '~!@#$%^&*()']) expect(KEY_FORMAT.test(ok), ok).to.equal(true);
    for (const bad of ['', ' ', ' a', 'a ', 'a\tb', 'caf\u00e9', 'a\u0000b', 'a\nb']) expect(KEY_FORMAT.test(bad), JSON.stringify(bad)).to.equal(false);
  });
});

describe('error serializer', () => {
  const MARKER = 'secret-value-42';
  function pgError(message: string, fields: Record<string, unknown>): Error {
    class DatabaseError extends Error {}
    return Object.assign(new DatabaseError(message), { name: 'error', severity: 'ERROR', length: 1, ...fields });
  }

  it('keeps what locates a database error and drops every value', () => {
    const e = pgError(`insert into "contacts" ("name") values ('${MARKER}') - duplicate key value violates unique constraint "contacts_pkey"`, {
      code: '23505',
      detail: `Key (name)=(${MARKER}) already exists.`,
      hint: `hint ${MARKER}`,
      where: `PL/pgSQL function f() line 1 near ${MARKER}`,
      internalQuery: `select '${MARKER}'`,
      parameters: [MARKER],
      bindings: [MARKER],
      schema: 'public',
      table: 'contacts',
      constraint: 'contacts_pkey',
      routine: '_bt_check_unique',
      file: 'nbtinsert.c',
      line: '666',
    });
    const out = serializeError(e) as Record<string, unknown>;
    expect(JSON.stringify(out)).to.not.include(MARKER);
    expect(out).to.include({
      type: 'DatabaseError',
      code: '23505',
      table: 'contacts',
      constraint: 'contacts_pkey',
      routine: '_bt_check_unique',
      message: 'database error 23505',
    });
    expect(out.stack).to.match(/^DatabaseError: database error 23505\n\s+at /);
  });

  it('keeps the Postgres message of classes that name only identifiers', () => {
    const e = pgError(`select * from "contacts" where "x" = '${MARKER}' - relation "contacts" does not exist`, { code: '42P01', routine: 'parserOpenTable' });
    const out = serializeError(e) as Record<string, unknown>;
    expect(out.message).to.equal('database error 42P01: relation "contacts" does not exist');
    expect(JSON.stringify(out)).to.not.include(MARKER);
  });

  it('drops a data exception message, which quotes the value', () => {
    const out = serializeError(pgError(`value "${MARKER}" is out of range for type bigint`, { code: '22003' })) as Record<string, unknown>;
    expect(JSON.stringify(out)).to.not.include(MARKER);
  });

  it('serializes causes the same way and leaves other errors readable', () => {
    const outer = new Error('command failed', { cause: pgError(`boom ${MARKER}`, { code: 'P0001', detail: MARKER }) });
    const out = serializeError(outer) as Record<string, unknown>;
    expect(out.message).to.equal('command failed');
    expect(JSON.stringify(out)).to.not.include(MARKER);
    expect((out.cause as Record<string, unknown>).code).to.equal('P0001');
    expect(serializeError('not an error')).to.equal('not an error');
  });
});

describe('HTTP timeout settings', () => {
  it('default to 20 s for headers, 60 s for a request, 65 s keep-alive', () => {
    const c = loadConfig({});
    expect([c.httpHeadersTimeoutMs, c.httpRequestTimeoutMs, c.httpKeepAliveTimeoutMs]).to.deep.equal([20_000, 60_000, 65_000]);
  });

  it('refuse bad values, and a headers timeout above the request timeout', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: 'soon' })).to.throw(ConfigError, /HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' })).to.throw(ConfigError, /HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_KEEPALIVE_TIMEOUT_MS: '-5' })).to.throw(ConfigError, /HTTP_KEEPALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).to.throw(ConfigError, /must not exceed/);
    const c = loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_KEEPALIVE_TIMEOUT_MS: '3000' });
    expect([c.httpHeadersTimeoutMs, c.httpRequestTimeoutMs, c.httpKeepAliveTimeoutMs]).to.deep.equal([1000, 5000, 3000]);
  });
});
