// A route may answer with a stream (Answer.stream: a download). Test-only
// routes, mounted through startService's extraModules hook.
import http from 'node:http';
import { expect } from 'chai';
import { route } from '../../src/api/routes.js';
import { defineModule } from '../../src/capabilities/capability.js';
import { startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/events.js';

let closedEarly = false;

const streams = defineModule({
  name: 'streams_test',
  events: [],
  routes: () => [
    route({
      method: 'get',
      path: '/test-stream/ok',
      permission: 'public',
      handle: async () => ({
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="x.json"' },
        stream: (async function* () {
          yield '{"a":';
          yield Buffer.from('[1,2,');
          yield '3]}';
        })(),
      }),
    }),
    route({
      method: 'get',
      path: '/test-stream/fails-first',
      permission: 'public',
      handle: async () => ({
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="x.json"' },
        stream: (async function* () {
          throw new Error('before any byte');
        })(),
      }),
    }),
    route({
      method: 'get',
      path: '/test-stream/fails-later',
      permission: 'public',
      handle: async () => ({
        status: 200,
        stream: (async function* () {
          yield '{"partial":';
          await new Promise((r) => setTimeout(r, 20));
          throw new Error('after some bytes');
        })(),
      }),
    }),
    route({
      method: 'get',
      path: '/test-stream/endless',
      permission: 'public',
      handle: async () => ({
        status: 200,
        stream: (async function* () {
          try {
            for (;;) {
              yield 'x'.repeat(64 * 1024);
              await new Promise((r) => setTimeout(r, 5));
            }
          } finally {
            closedEarly = true;
          }
        })(),
      }),
    }),
  ],
});

describe('streamed answers', function () {
  let t: TestService;
  before(async () => (t = await startTestService('streams', { extraModules: [streams], env: { WORKERS: 'off' } })));
  after(async () => t?.close());

  it("sends the chunks in order, as JSON unless the route says otherwise, with the route's headers", async () => {
    const r = await fetch(`${t.service.url}/api/test-stream/ok`);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^application\/json/);
    expect(r.headers.get('content-disposition')).to.equal('attachment; filename="x.json"');
    expect(await r.json()).to.deep.equal({ a: [1, 2, 3] });
  });

  it('answers the error envelope, without the download headers, when the stream fails before its first byte', async () => {
    const r = await fetch(`${t.service.url}/api/test-stream/fails-first`);
    expect(r.status).to.equal(500);
    expect(r.headers.get('content-disposition')).to.equal(null);
    expect(((await r.json()) as { errors: { code: string }[] }).errors[0]!.code).to.equal('internal_error');
  });

  it('cuts the connection when the stream fails after bytes went out, so the body never looks complete', async () => {
    const r = await fetch(`${t.service.url}/api/test-stream/fails-later`);
    expect(r.status).to.equal(200);
    let failed = false;
    await r.text().catch(() => (failed = true));
    expect(failed).to.equal(true);
  });

  it('stops the producer when the client goes away', async () => {
    // node:http rather than fetch: fetch opens a spare connection that would hold the server's close.
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${t.service.url}/api/test-stream/endless`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    });
    await eventually(
      () => closedEarly,
      (x) => x,
      5000,
    );
  });
});
