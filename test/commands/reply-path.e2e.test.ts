// How many source files a reply's synchronous path runs code in (issue 47). V8's precise coverage, taken in this
// process around one warm reply: the files under src/ with a function that ran. The review counted about 36 at
// 8b26c1b, by reading; by running, a reply ran code in 49 files then, 12 of them the platform's helpers (src/platform:
// the clock, ids, crypto primitives, the database helpers), which a reader of the path takes as given and the
// review's count left out: 37 outside them. Now 47 and 35: the request's context is one file (api/context.ts) and
// what the edge refuses is one (api/validation.ts). 48 since the server counts each connection's requests in flight
// so that a stop waits for no idle connection (platform/http-stop.ts, one listener a request). Workers are off, so what ran is the request's; a feature that puts
// one more file on every reply's path fails here. The test prints the files.
import { Session } from 'node:inspector/promises';
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';

/** Files of src/ a reply may run code in (49 at 8b26c1b). */
const CEILING = 48;
/** The same outside src/platform, the review's count (37 at 8b26c1b by this method; about 36 by reading). */
const OUTSIDE_PLATFORM = 35;

describe("a reply's path through the source", function () {
  this.timeout(60_000);
  const fx = capabilityFixture('reply-path', { scopes: ['conversations:read', 'conversations:write'], env: { WORKERS: 'off' } });

  it(`runs code in at most ${CEILING} files of src/, ${OUTSIDE_PLATFORM} outside src/platform`, async () => {
    const c = await fx.ok(
      fx.t.client.post('/api/conversations', { channel_id: fx.channel.id, body: 'Hello', contact: { email: 'a@example.com' } }, fx.as()),
      201,
    );
    const reply = () => fx.ok(fx.t.client.post(`/api/conversations/${c.id}/reply`, { message_type: 'comment', body: 'On it' }, fx.as()), 201);
    // Warm: caches filled, statements prepared, lazy modules loaded.
    for (let i = 0; i < 3; i++) await reply();
    const session = new Session();
    session.connect();
    try {
      await session.post('Profiler.enable');
      await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
      await session.post('Profiler.takePreciseCoverage'); // counts from here
      await reply();
      const { result } = await session.post('Profiler.takePreciseCoverage');
      await session.post('Profiler.stopPreciseCoverage');
      const root = new URL('../../src/', import.meta.url).href;
      const files = result
        .filter((s) => s.url.startsWith(root) && s.functions.some((f) => f.ranges.some((r) => r.count > 0)))
        .map((s) => s.url.slice(root.length))
        .sort();
      console.log(`      a reply ran code in ${files.length} files of src/:\n${files.map((f) => `        ${f}`).join('\n')}`);
      expect(files.length).to.be.at.most(CEILING);
      expect(
        files.filter((f) => !f.startsWith('platform/')),
        'outside src/platform',
      ).to.have.length.at.most(OUTSIDE_PLATFORM);
    } finally {
      session.disconnect();
    }
  });
});
