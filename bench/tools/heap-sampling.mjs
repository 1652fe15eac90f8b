// Preloaded into the service (NODE_OPTIONS="--import <this file>"; bench/README.md) to sample what it allocates:
// V8's sampling heap profiler with collected objects kept (node --heap-prof keeps only what is still alive at
// exit, which says nothing of the garbage a request makes). Written on SIGTERM, the bench's way of stopping the
// service, to $BENCH_HEAP_PROFILE_DIR (default: the system's temp folder) as alloc-<pid>.heapprofile; read it with
// bench/tools/heap-summary.ts.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 32768,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
let written = false;
process.prependListener('SIGTERM', async () => {
  if (written) return;
  written = true;
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const dir = process.env.BENCH_HEAP_PROFILE_DIR || os.tmpdir();
  writeFileSync(path.join(dir, `alloc-${process.pid}.heapprofile`), JSON.stringify(profile));
});
