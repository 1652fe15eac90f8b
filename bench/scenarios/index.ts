// The scenarios, in the order they run, and the rows the full table carries:
// the one place that lists them. Each scenario is a file beside this one;
// what they share (sizes, the context, load helpers) is in ./shared.ts.
import { append } from './append.js';
import { audit, auditExport } from './audit.js';
import { calibrate } from './calibrate.js';
import { deepPage } from './deep-page.js';
import { emailHostile } from './email-hostile.js';
import { emailInbound } from './email-inbound.js';
import { inbound } from './inbound.js';
import { read } from './read.js';
import { rateLimit } from './rate-limit.js';
import { rebuild } from './rebuild.js';
import { reply } from './reply.js';
import { rls } from './rls.js';
import { rules } from './rules.js';
import { search } from './search.js';
import { sla } from './sla.js';
import { onEventStoreDb, type Scenario } from './shared.js';
import { upload } from './upload.js';
import { bulk } from './bulk.js';
import { stream } from './stream.js';
import { webhook } from './webhook.js';
import { write } from './write.js';
import { failover } from './failover.js';

export { FULL, QUICK, onEventStoreDb, sampleConversation, type Ctx, type Scenario, type Sizes, type StoreSide } from './shared.js';

/**
 * In the order they run: the service scenarios share one service process; the store scenarios need none.
 * deep-page goes last of the service ones: a million seeded rows are best added after the others ran.
 */
export const SCENARIOS: Scenario[] = [
  write,
  read,
  reply,
  rls,
  audit,
  auditExport,
  rateLimit,
  inbound,
  emailInbound,
  emailHostile,
  sla,
  webhook,
  calibrate,
  search,
  deepPage,
  append,
  rebuild,
  // Late: the files it leaves (a gigabyte or so, sealed) would weigh on the scenarios that seed and scan.
  upload,
  bulk,
  stream,
  rules,
  failover,
];

/** Every row name the full table carries, in the order it prints (the smoke test checks each is there). */
export const ROW_NAMES = [
  'read',
  'write',
  'write, 8 workspaces',
  'memory',
  'cpu per write',
  'reply',
  'rls read',
  'rls write',
  'audit',
  'audit export',
  'rate limit read',
  'inbound',
  'email inbound',
  'email hostile',
  'sla',
  'deep-page',
  'deep-page control',
  'search',
  'append',
  'rebuild',
  'upload',
  'bulk',
  'stream',
  'webhook',
  'rules',
  'calibration',
];
/**
 * Rows only a run given an EventStoreDB server adds (`--eventstoredb <url>` or EVENTSTORE_URL): the same rows with
 * the service's log on that server, each printed after its Postgres row, informational (no target). A result lists
 * them in its expected rows only when it had a server.
 */
export const EVENTSTORE_ROWS = ['append', 'write', 'write, 8 workspaces', 'memory', 'cpu per write', 'reply'].map(onEventStoreDb);
/** Rows only BENCH_EXPERIMENTS=1 adds (not expected in every result). */
export const EXPERIMENT_ROWS = ['append (experiment)'];
/**
 * Rows a full run adds where the Patroni cluster's packages are installed (the failover row: not in quick mode,
 * so not in what the smoke test expects); they print last.
 */
export const CLUSTER_ROWS = ['failover'];

export const scenarioNames = (): string[] => SCENARIOS.flatMap((s) => [s.name, ...(s.aliases ?? [])]);

export function pick(names: string[]): Scenario[] {
  if (names.length === 0) return SCENARIOS;
  const unknown = names.filter((n) => !scenarioNames().includes(n));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${scenarioNames().join(', ')}`);
  return SCENARIOS.filter((s) => names.includes(s.name) || (s.aliases ?? []).some((a) => names.includes(a)));
}
