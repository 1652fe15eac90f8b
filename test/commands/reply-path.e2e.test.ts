// How many source files a reply's synchronous path runs code in (issue 47). V8's precise coverage, taken in this
// process around one warm reply: the files under src/ with a function that ran, the platform's helpers included
// (the review's count, about 36 at 8b26c1b, was by reading and left some out; this one is by running). By this
// count a reply ran code in 49 files at 8b26c1b and in 49 now (the test prints them). Workers are off, so
// what ran is the request's; a feature that puts one more file on every reply's path fails here.
import { Session } from 'node:inspector/promises';
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';

/** Files of src/ a reply may run code in: the count at 8b26c1b, which the review measured the hub by. */
const CEILING = 49;

describe("a reply's path through the source", function () {
  this.timeout(60_000);
  const fx = capabilityFixture('reply-path', { scopes: ['conversations:read', 'conversations:write'], env: { WORKERS: 'off' } });

  it(`runs code in at most ${CEILING} files of src/`, async () => {
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
    } finally {
      session.disconnect();
    }
  });
});
