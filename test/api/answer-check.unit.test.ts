// The root hook's check of recorded answers (test/support/answer-check.ts):
// undocumented statuses and bodies off their schema are caught, and concrete
// paths map to the right template.
import { expect } from 'chai';
import { checkRecordedAnswers, type RecordedAnswer } from '../support/answer-check.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const id = '6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b';
const err = (code: string) => JSON.stringify({ type: 'error.list', request_id: 'r', errors: [{ code, message: 'm' }] });
const counts = JSON.stringify({ type: 'list', as_of_seq: 7, data: [{ type: 'view_count', id: 'open', name: 'Open', kind: 'builtin', count: 3 }] });
const a = (method: string, path: string, status: number, text: string, contentType: string | null = JSON_TYPE): RecordedAnswer => ({
  method,
  path,
  status,
  text,
  contentType,
});

describe('recorded answers against the OpenAPI document (unit)', () => {
  it('accepts documented answers, and maps /counts before /{id}', () => {
    const r = checkRecordedAnswers([
      a('GET', '/api/conversations/counts', 200, counts),
      a('GET', `/api/conversations/${id}`, 404, err('not_found')),
      a('DELETE', '/api/session', 204, '', null),
      a('POST', `/api/channels/${id}/inbound`, 401, '', null),
      a('POST', `/api/channels/${id}/inbound`, 401, err('stale_timestamp')),
      a('GET', '/api/nowhere', 404, err('route_not_found')),
    ]);
    expect(r.problems).to.deep.equal([]);
    expect(r.checked).to.equal(5);
    expect(r.unmatched).to.equal(1);
    expect([...r.covered.keys()]).to.include.members(['GET /api/conversations/counts', 'GET /api/conversations/{id}']);
  });

  it('fails an undocumented status, a body off its schema, a body where none is documented and an empty one where one is', () => {
    const r = checkRecordedAnswers([
      a('GET', '/api/conversations/counts', 418, err('teapot')),
      a(
        'GET',
        '/api/conversations/counts',
        200,
        JSON.stringify({ type: 'list', as_of_seq: 7, data: [{ type: 'view_count', id: 'open', name: 'Open', kind: 'builtin', count: '3' }] }),
      ),
      a('GET', `/api/conversations/${id}`, 200, JSON.stringify({ type: 'conversation', id })),
      a('DELETE', '/api/session', 204, '{}'),
      a('GET', '/api/me', 401, '', null),
      a('GET', '/api/me', 401, '{"type":"error.list","errors":[]}'),
      a('POST', `/api/channels/${id}/inbound`, 401, '{"stale":true}'),
    ]);
    const text = r.problems.join('\n');
    expect(r.problems).to.have.length(7);
    expect(text).to.match(/POST \/api\/channels\/\{id\}\/inbound 401: body does not match/);
    expect(text).to.match(/GET \/api\/conversations\/counts 418: status not documented/);
    expect(text).to.match(/GET \/api\/conversations\/counts 200: body does not match .*\/data\/0\/count must be integer/);
    expect(text).to.match(/GET \/api\/conversations\/\{id\} 200: body does not match .*must have required property/);
    expect(text).to.match(/DELETE \/api\/session 204: documented without a body/);
    expect(text).to.match(/GET \/api\/me 401: answered an empty body/);
    expect(text).to.match(/GET \/api\/me 401: body does not match/);
  });
});
