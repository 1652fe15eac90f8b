// Property-based fuzzing of every route the service mounts (the list comes from
// the running service). Each case starts from a request body and query string
// generated from the route's own JSON Schemas, then mutates them (wrong types,
// missing and extra fields, boundary numbers, deep nesting, long strings,
// hostile characters, other media types, garbled path ids, other credentials).
// Whatever the input: no 5xx; every 4xx carries the error envelope (the inbound
// route's documented empty 401 aside); and a rejected (4xx) request leaves every
// workspace's change feed where it was.
//
//   FUZZ_RUNS=2000 npx mocha test/api/fuzz.e2e.test.ts    more cases per route (default 20, which keeps npm test within its
//                                                          time budget; .ci/run also runs 100 a route; POST /session a quarter)
//   FUZZ_SEED=123                                          another seed (printed on failure)
//   FUZZ_ROUTE='POST /conversations'                       only routes whose "METHOD path" contains this
//   FUZZ_SHRINK=1                                          shrink a failing case (slow: it replays requests)
//   FUZZ_VERBOSE=1                                         print the answers each route gave
import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import fc from 'fast-check';
import { expect } from 'chai';
import type { RouteDef } from '../../src/api/routes.js';
import { SCOPES } from '../../src/api/scopes.js';
import { ManualClock } from '../../src/platform/clock.js';
import { mailDns } from '../../src/capabilities/email/index.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20260101);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const ONLY = process.env.FUZZ_ROUTE ?? '';
const SHRINK = process.env.FUZZ_SHRINK === '1';
const VERBOSE = process.env.FUZZ_VERBOSE === '1'; // prints the answers (status and code) each route gave
const BODY_LIMIT = 256 * 1024;
// Signing in runs a deliberately slow password check (scrypt) for every well-formed body, known
// e-mail or not: a quarter of the cases keeps that route from taking a third of the run.
const runsFor = (def: RouteDef): number => (def.method === 'post' && def.path === '/session' ? Math.ceil(RUNS / 4) : RUNS);
const ALLOWED_URL = 'http://127.0.0.9:9/hook';
const URL_HOSTS = [
  '127.0.0.9:9',
  '127.0.0.9',
  '127.0.0.1:8080',
  '[::1]',
  '10.0.0.1',
  '169.254.169.254',
  '0.0.0.0',
  '203.0.113.7',
  'localhost',
  '[::ffff:127.0.0.9]',
];

type Schema = Record<string, any>;
type Arb<T = unknown> = fc.Arbitrary<T>;

// ---------------------------------------------------------------------------
// JSON Schema -> arbitrary, covering what the service's schemas use.

interface Pools {
  uuids: string[];
  /** extra values for properties by name (real ids, tokens), mixed in with the schema's own */
  byName: Record<string, Arb>;
}

function fromSchema(s: Schema, pools: Pools, name?: string): Arb {
  const plain = plainFromSchema(s, pools);
  const hint = name ? pools.byName[name] : undefined;
  return hint ? fc.oneof({ weight: 2, arbitrary: hint }, { weight: 1, arbitrary: plain }) : plain;
}

function plainFromSchema(s: Schema, pools: Pools): Arb {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as Schema[]).map((x) => fromSchema(x, pools)));
  if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((t) => plainFromSchema({ ...s, type: t }, pools)));
  const type = s.type ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1e9, Number.MIN_SAFE_INTEGER), max: Math.min(s.maximum ?? 1e9, Number.MAX_SAFE_INTEGER) });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringFrom(s, pools);
    case 'array':
      return fc.array(fromSchema(s.items ?? {}, pools), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 4, 4)) });
    case 'object':
      return objectFrom(s, pools);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFrom(s: Schema, pools: Pools): Arb<string> {
  const min: number = s.minLength ?? 0;
  const max: number = s.maxLength ?? 64;
  let a: Arb<string>;
  switch (s.format) {
    case 'uuid':
      a = fc.oneof(fc.constantFrom(...pools.uuids), fc.uuid());
      break;
    case 'email':
      a = fc.emailAddress();
      break;
    case 'uri':
      // hosts are IP literals or localhost: nothing here may send a DNS query off this machine
      a = fc
        .tuple(fc.constantFrom('http', 'https'), fc.constantFrom(...URL_HOSTS), fc.stringMatching(/^(\/[a-z0-9._~-]{0,12}){0,3}(\?[a-z0-9=&]{0,12})?$/))
        .map(([scheme, host, rest]) => `${scheme}://${host}${rest}`);
      break;
    case 'date-time':
      a = fc.oneof(
        {
          weight: 3,
          arbitrary: fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
        },
        // what RFC 3339 allows beyond toISOString: leap seconds, year 0 and 9999, lower case, offsets, long fractions
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '2035-06-30T23:59:60Z',
            '2035-12-31T18:29:60-05:30',
            '0000-01-01T00:00:00Z',
            '9999-12-31T23:59:59.999999999Z',
            '2035-01-01t00:00:00z',
            '2035-01-01 00:00:00+23:59',
            '2035-01-01T00:00:00-00:00',
          ),
        },
      );
      break;
    default:
      a = s.pattern ? fc.stringMatching(new RegExp(s.pattern)) : fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 40)) });
  }
  return a.filter((x) => x.length >= min && x.length <= max);
}

function objectFrom(s: Schema, pools: Pools): Arb {
  if (!s.properties) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  const props = s.properties as Record<string, Schema>;
  const required = new Set<string>(s.required ?? []);
  const model: Record<string, Arb> = {};
  for (const [k, v] of Object.entries(props)) model[k] = fromSchema(v, pools, k);
  let a: Arb = fc.record(model, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
  if (s.minProperties) a = a.filter((o) => Object.keys(o as object).length >= s.minProperties);
  return a;
}

// ---------------------------------------------------------------------------
// Mutations of a JSON value. A mutation is data (kind + picks), applied deterministically.

type Path = (string | number)[];
const KINDS = ['none', 'wrongType', 'dropKey', 'extraKey', 'boundary', 'deep', 'long', 'hostile', 'hostileKey'] as const;
type Kind = (typeof KINDS)[number];
interface Mutation {
  kind: Kind;
  pick: number;
  choice: number;
}
const mutationArb: Arb<Mutation> = fc.record({
  kind: fc.oneof({ weight: 6, arbitrary: fc.constant<Kind>('none') }, { weight: 9, arbitrary: fc.constantFrom<Kind>(...KINDS.filter((k) => k !== 'none')) }),
  pick: fc.nat(),
  choice: fc.nat(),
});

const HOSTILE = [
  '\u0000',
  '\ud800',
  '\udc00',
  '\udbff',
  'a\u0000b',
  '\ud83d\ude00',
  '\u2028',
  '\ufeff',
  '\u202e',
  "'; DROP TABLE events; --",
  '%00',
  '\\',
  '${x}',
  '\r\n',
  'é',
  '\u0001',
  '\uffff',
  '\ud800\ud800',
];
const WRONG: unknown[] = [123, -1, 'str', true, false, null, [], {}, [1, 'a'], { a: 1 }, 1.5, ''];
// `RAW` values are written into the JSON text as they are: JSON.stringify cannot express 1e400,
// and deep nesting is built as text (a deeply nested object would overflow JSON.stringify here).
const RAW_TEXTS: string[] = [];
function raw(literal: string): string {
  let i = RAW_TEXTS.indexOf(literal);
  if (i < 0) i = RAW_TEXTS.push(literal) - 1;
  return `\u0001RAW:${i}\u0001`;
}
const RAW_SENTINEL = /"\\u0001RAW:(\d+)\\u0001"/g;
const rawText = (s: string): string | null => {
  const m = /^\u0001RAW:(\d+)\u0001$/.exec(s);
  return m ? RAW_TEXTS[Number(m[1])]! : null;
};
const BOUNDARY: unknown[] = [
  0,
  -1,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
  'NaN',
  'Infinity',
  '-0',
  raw('1e400'),
  raw('-1e400'),
  raw('123456789012345678901234567890'),
  raw('-0'),
  raw('1E2'),
  9223372036854775807,
];
const DEPTHS = [20, 33, 64, 500, 5000];
const LONG = [256, 1001, 70_000, 200_000, 150_000];

function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}
const objectPaths = (v: unknown): Path[] =>
  [[], ...paths(v)].filter((p) => {
    const x = get(v, p);
    return x !== null && typeof x === 'object' && !Array.isArray(x);
  });
const get = (v: unknown, p: Path): unknown => p.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)?.[k], v);
const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

function setAt(root: unknown, p: Path, value: unknown): unknown {
  if (p.length === 0) return value;
  const parent = get(root, p.slice(0, -1)) as Record<string | number, unknown>;
  parent[p[p.length - 1]!] = value;
  return root;
}

const nest = (depth: number, arrays: boolean): string =>
  raw(arrays ? `${'['.repeat(depth)}"x"${']'.repeat(depth)}` : `${'{"n":'.repeat(depth)}"x"${'}'.repeat(depth)}`);

function mutate(value: unknown, m: Mutation): unknown {
  const v = clone(value);
  const all = paths(v);
  const at = all.length > 0 ? all[m.pick % all.length]! : null;
  const pickFrom = <T>(xs: readonly T[]) => xs[m.choice % xs.length]!;
  switch (m.kind) {
    case 'none':
      return v;
    case 'wrongType':
      return at ? setAt(v, at, clone(pickFrom(WRONG))) : pickFrom(WRONG);
    case 'dropKey': {
      const objs = paths(v).filter((p) => typeof p[p.length - 1] === 'string');
      if (objs.length === 0) return v;
      const p = objs[m.pick % objs.length]!;
      delete (get(v, p.slice(0, -1)) as Record<string, unknown>)[p[p.length - 1] as string];
      return v;
    }
    case 'extraKey':
    case 'hostileKey': {
      const objs = objectPaths(v);
      if (objs.length === 0) return v;
      const o = get(v, objs[m.pick % objs.length]!) as Record<string, unknown>;
      const key =
        m.kind === 'hostileKey' ? `k${pickFrom(HOSTILE)}` : pickFrom(['extra', 'id', 'tenant_id', '__proto__', 'constructor', 'seq', 'x'.repeat(300), '']);
      o[key] = clone(pickFrom(WRONG));
      return v;
    }
    case 'boundary':
      return at ? setAt(v, at, pickFrom(BOUNDARY)) : v;
    case 'deep':
      return setAt(v, at ?? [], nest(pickFrom(DEPTHS), m.pick % 2 === 0));
    case 'long': {
      const n = pickFrom(LONG);
      return setAt(v, at ?? [], n === 150_000 ? 'é'.repeat(n) : 'a'.repeat(n));
    }
    case 'hostile': {
      const strings = paths(v).filter((p) => typeof get(v, p) === 'string');
      const h = pickFrom(HOSTILE);
      if (strings.length === 0) return at ? setAt(v, at, h) : v;
      const p = strings[m.pick % strings.length]!;
      const s = get(v, p) as string;
      const i = s.length === 0 ? 0 : m.pick % (s.length + 1);
      return setAt(v, p, s.slice(0, i) + h + s.slice(i));
    }
  }
}

const toJsonText = (v: unknown): string => JSON.stringify(v).replace(RAW_SENTINEL, (_m, i: string) => RAW_TEXTS[Number(i)]!);

// ---------------------------------------------------------------------------
// Requests

/** Percent-encodes any string, including lone surrogates (as the bytes of their 3-byte form). */
function enc(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(s[i]! + s[i + 1]!);
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(s[i]!);
  }
  return out;
}

function queryText(q: unknown): string {
  if (!q || typeof q !== 'object' || Array.isArray(q))
    return q === undefined ? '' : `q=${enc(typeof q === 'string' ? (rawText(q) ?? q) : (toJsonText(q) ?? ''))}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    for (const x of Array.isArray(v) ? v : [v]) parts.push(`${enc(k)}=${enc(typeof x === 'string' ? (rawText(x) ?? x) : (toJsonText(x) ?? ''))}`);
  }
  return parts.join('&');
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');
const RAW_QUERY = [
  'per_page=1e400',
  'per_page=99999999999999999999',
  'after_seq=9223372036854775808',
  'after_seq=-1',
  'workspace=%00',
  '%ED%A0%80=1',
  'sort=%00',
  'x=%E0%A4%A',
  'per_page=1&per_page=2',
  '=',
  'a=%',
  'order=asc%00',
  'starting_after=%%%',
  `starting_after=${b64({ v: 1, sort: 'created_at', order: 'asc', key: '1', id: 'x' })}`,
  `starting_after=${b64({ v: 1, sort: 'seq', order: 'asc', key: 1e300, id: '00000000-0000-4000-8000-000000000000' })}`,
  `starting_after=${b64({ v: 1, sort: 'updated_at', order: 'desc', key: '2024-01-01T00:00:00Z', id: '00000000-0000-4000-8000-000000000000' })}`,
  `starting_after=${b64([1, 2])}`,
  `starting_after=${'A'.repeat(3000)}`,
  'types=conversation.created,%00',
  'state=open&state=closed',
];

const GARBAGE_IDS = [
  'garbage',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%E0%A4%A',
  'x'.repeat(3000),
  '..',
  '%2F',
  '%20',
  '1',
  "'%3B--",
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-000000000000',
  'null',
  '%F0%9F%98%80',
];

type Auth = 'key' | 'cookie' | 'cookie-no-header' | 'cookie-bad-workspace' | 'none' | 'garbage-key' | 'garbage-cookie';
type ContentType = 'json' | 'none' | 'text/plain' | 'form' | 'latin1' | 'utf-16' | 'merge-patch' | 'gzip';
type WholeBody = null | string;

interface Case {
  body: unknown;
  mutation: Mutation;
  whole: WholeBody;
  contentType: ContentType;
  query: unknown;
  queryMutation: Mutation;
  rawQuery: string | null;
  ids: number[];
  auth: Auth;
  idempotencyKey: string | null;
  signed: boolean;
  timestamp: 'now' | 'stale' | 'garbage';
}

const WHOLE = [
  '"x"',
  'null',
  '[]',
  '42',
  'true',
  '',
  '{',
  '{"a":',
  '\u0000',
  'not json',
  '{"__proto__":{"x":1}}',
  '{"a":1,"a":2}',
  '\uFEFF{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
];

function caseArb(def: RouteDef, bodySchema: Schema | undefined, pools: Pools): Arb<Case> {
  const isInbound = def.rawBody === true;
  const authArb: Arb<Auth> =
    def.permission === 'public'
      ? fc.constantFrom<Auth>('none', 'none', 'none', 'garbage-key', 'garbage-cookie')
      : def.freshSession
        ? fc.oneof(
            { weight: 14, arbitrary: fc.constant<Auth>('cookie') },
            { weight: 6, arbitrary: fc.constantFrom<Auth>('key', 'cookie-no-header', 'cookie-bad-workspace', 'none', 'garbage-key', 'garbage-cookie') },
          )
        : fc.oneof(
            { weight: 14, arbitrary: fc.constant<Auth>('key') },
            { weight: 3, arbitrary: fc.constant<Auth>('cookie') },
            { weight: 3, arbitrary: fc.constantFrom<Auth>('cookie-no-header', 'cookie-bad-workspace', 'none', 'garbage-key', 'garbage-cookie') },
          );
  return fc.record({
    body: bodySchema ? fromSchema(bodySchema, pools) : fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })),
    mutation: mutationArb,
    whole: fc.oneof({ weight: 12, arbitrary: fc.constant<WholeBody>(null) }, { weight: 1, arbitrary: fc.constantFrom<WholeBody>(...WHOLE) }),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant<ContentType>('json') },
      { weight: 1, arbitrary: fc.constantFrom<ContentType>('none', 'text/plain', 'form', 'latin1', 'utf-16', 'merge-patch', 'gzip') },
    ),
    query: def.query ? fromSchema(def.query, pools) : fc.constant(undefined),
    queryMutation: mutationArb,
    rawQuery: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERY) }),
    ids: fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
    auth: authArb,
    idempotencyKey:
      def.method === 'get'
        ? fc.constant(null)
        : fc.oneof(
            { weight: 3, arbitrary: fc.constant(null) },
            { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 }) },
          ),
    signed: isInbound ? fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) : fc.constant(false),
    timestamp: isInbound
      ? fc.oneof({ weight: 8, arbitrary: fc.constant<'now'>('now') }, { weight: 1, arbitrary: fc.constantFrom<'stale' | 'garbage'>('stale', 'garbage') })
      : fc.constant<'now'>('now'),
  });
}

const MIME_ROUTE = '/channels/:id/inbound/mime';
const MIME_SECRET = 'fuzz-mime-secret-0123456789';
const MIME_TYPES = ['text/plain', 'text/html; charset=utf-8', 'multipart/mixed; boundary=b', 'multipart/report; report-type=delivery-status; boundary=b'];

/** A message for the raw MIME route made of the case's text: in its headers (cut into pieces), its body and a nested part. */
function mimeOf(text: string, c: Case): string {
  const piece = (k: number) => {
    const at = text.length ? (k * 37 + c.ids[0]!) % text.length : 0;
    return text.slice(at, at + 60).replace(/[\r\n]/g, ' ');
  };
  return [
    `From: ${piece(1)} <${piece(2).replace(/\s/g, '') || 'x'}@customer.example>`,
    `Subject: ${piece(3)}`,
    `Message-ID: <${c.ids[0]}.${piece(4).replace(/[\s<>]/g, '')}@fuzz.example>`,
    `In-Reply-To: <${piece(5)}>`,
    `Auto-Submitted: ${piece(6)}`,
    `Content-Type: ${MIME_TYPES[c.ids[1]! % MIME_TYPES.length]}`,
    '',
    text,
    '--b',
    'Content-Type: message/rfc822',
    '',
    `Message-ID: <${piece(7)}>`,
    '',
    text,
    '--b--',
  ].join('\r\n');
}

// The signed inbound route validates its raw body itself (no `body` schema on the
// route); this is its documented body (docs/api-guide.md, channelInboundRequest).
const INBOUND_BODY: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['external_id', 'contact', 'content'],
  properties: {
    external_id: { type: 'string', minLength: 1, maxLength: 255 },
    message_id: { type: 'string', minLength: 1, maxLength: 255 },
    contact: {
      type: 'object',
      additionalProperties: false,
      required: ['external_id'],
      properties: {
        external_id: { type: 'string', minLength: 1, maxLength: 255 },
        name: { type: 'string', maxLength: 255 },
        email: { type: 'string', format: 'email', maxLength: 320 },
        phone: { type: ['string', 'null'], maxLength: 64 },
      },
    },
    content: { type: 'string', minLength: 1, maxLength: 65535 },
    attachments: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['url'],
        properties: { url: { type: 'string', format: 'uri' }, name: { type: 'string' }, size: { type: 'integer', minimum: 0 } },
      },
    },
    at: { type: 'string', format: 'date-time' },
  },
};

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

describe('fuzzing every route', function () {
  // A hang guard that grows with the cases asked for (about 1.6 s a case per route here, alone).
  this.timeout(Math.max(600_000, RUNS * 6_000));
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let other: Member;
  let key: string;
  let inbound: { id: string; secret: string };
  // The e-mail channel's raw MIME route: signed like the inbound route, with a message made of the case's text.
  let mime: { id: string; secret: string };
  let pools: Pools;
  let idsFor: (def: RouteDef, param: string) => string[];

  // A mutated URL can name any host, and saving a URL resolves it (the destination policy):
  // while the fuzzer runs, name lookups answer from this machine only, never a DNS server.
  const realLookup = dns.promises.lookup;
  before(() => {
    (dns.promises as { lookup: unknown }).lookup = async (host: string) => {
      if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
  });
  after(() => void ((dns.promises as { lookup: unknown }).lookup = realLookup));

  before(async () => {
    clock = new ManualClock(new Date());
    // Its frozen clock keeps every request in one rate-limit window: limits above what the run sends, so the
    // routes answer for themselves rather than 429 (rate limits have their own tests: test/api/rate-limit.e2e.test.ts).
    t = await startTestService('fuzz', {
      clock,
      env: {
        WEBHOOK_ALLOWLIST: '127.0.0.9',
        WORKERS: 'off',
        // The fuzzed e-mail channel's domain is nobody's to verify (domain verification: test/email/email-domains.e2e.test.ts).
        EMAIL_DOMAIN_VERIFICATION: 'off',
        RATE_LIMIT_KEY: '1000000000',
        RATE_LIMIT_WORKSPACE: '1000000000',
        RATE_LIMIT_EXPENSIVE: '1000000000',
        RATE_LIMIT_CHANNEL: '1000000000',
      },
    });
    owner = await newWorkspace(t, 'Fuzz');
    other = await newWorkspace(t, 'Other');
    // The fuzzing key's and owner's ids are never offered as path ids, so the run cannot revoke,
    // rotate or remove its own credentials.
    key = (await mintKey(t, owner, [...SCOPES], 'fuzzer')).secret;
    const spareKeys = [await mintKey(t, owner, ['conversations:read'], 'spare 1'), await mintKey(t, owner, ['events:read'], 'spare 2')];
    const admin = await addMember(t, owner, 'admin');
    const agent = await addMember(t, owner, 'agent');
    const channel = await createChannel(t, owner);
    inbound = await createChannel(t, owner); // never offered as a path id to other routes: rotation would break signing
    // mailauth asks DNS about a message's domains: no query leaves the machine while the fuzzer runs.
    mailDns.resolver = async (name: string) => {
      throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    const mimeChannel = await t.client.post(
      '/api/channels',
      { kind: 'email', name: 'Fuzz mail', address: 'fuzz@mail.example', default_team_id: null, webhook_secret: MIME_SECRET },
      { key },
    );
    expect(mimeChannel.status, mimeChannel.text).to.equal(201);
    mime = { id: mimeChannel.body.id, secret: MIME_SECRET };
    const conv = await t.client.post('/api/conversations', { channel_id: channel.id, body: 'hello', contact: { external_id: 'fuzz-1', name: 'Ada' } }, { key });
    expect(conv.status, conv.text).to.equal(201);
    const ep = await t.client.post('/api/webhooks', { url: ALLOWED_URL, event_names: ['conversation.created'] }, { key });
    expect(ep.status, ep.text).to.equal(201);
    const otherKey = (await mintKey(t, other, ['settings:write', 'conversations:write'])).secret;
    const otherChannel = await createChannel(t, other);
    const otherConv = await t.client.post('/api/conversations', { channel_id: otherChannel.id, body: 'x', contact: { external_id: 'o-1' } }, { key: otherKey });
    expect(otherConv.status, otherConv.text).to.equal(201);
    const invites: string[] = [];
    for (let i = 0; i < 4; i++) {
      const inv = await t.client.post('/api/members/invites', { email: `fuzz-invite-${i}-${Date.now()}@example.com`, role: 'viewer' }, { key });
      expect(inv.status, inv.text).to.equal(201);
      invites.push(inv.body.token);
    }

    const ours = {
      conversations: [conv.body.id as string],
      channels: [channel.id],
      webhooks: [ep.body.id as string],
      // not the fuzzing owner: two owners (a fuzzed role change) would let a case remove it
      members: [admin.memberId, agent.memberId],
      keys: spareKeys.map((k) => k.id),
    };
    const theirs = [other.workspaceId, other.memberId, otherChannel.id, otherConv.body.id as string];
    const allOurs = Object.values(ours).flat();
    pools = {
      uuids: [...allOurs, ...theirs],
      byName: {
        channel_id: fc.constantFrom(channel.id, otherChannel.id),
        contact_id: fc.constantFrom(conv.body.contact_id as string, otherConv.body.contact_id as string),
        assignee_id: fc.constantFrom(admin.memberId, agent.memberId, other.memberId, 'none'),
        token: fc.constantFrom(...invites),
        email: fc.constantFrom(owner.email, admin.email),
        password: fc.constantFrom(owner.password),
        url: fc.constant(ALLOWED_URL),
        webhook_url: fc.constantFrom(ALLOWED_URL, null),
        // well-formed cursors for every sort and order (a list takes the ones minted for its sort and order)
        starting_after: fc.constantFrom(
          ...['created_at', 'updated_at', 'joined_at', 'seq'].flatMap((sort) =>
            ['asc', 'desc'].flatMap((order) => [
              b64({ v: 1, sort, order, key: clock.now().toISOString(), id: channel.id }),
              b64({ v: 1, sort, order, key: 3, id: channel.id }),
              b64({ v: 1, sort, order, key: '0001-01-01T00:00:00Z', id: '00000000-0000-4000-8000-000000000000' }),
            ]),
          ),
        ),
      },
    };
    idsFor = (def, param) => {
      const base = def.path.split('/')[1] as keyof typeof ours;
      const right = param === 'id' ? (ours[base] ?? allOurs) : [];
      return [...right, ...right, ...allOurs, ...theirs, ...GARBAGE_IDS, 'ABCDEF00-0000-4000-8000-000000000000'];
    };
  });
  after(async () => {
    delete mailDns.resolver;
    await t.close();
  });

  const heads = async () => Promise.all([t.service.deps.store.head(owner.workspaceId), t.service.deps.store.head(other.workspaceId)]);

  async function send(def: RouteDef, c: Case): Promise<{ reply: Reply | null; bytes: number; path: string }> {
    const isInbound = def.rawBody === true;
    const isMime = def.path === MIME_ROUTE;
    let i = 0;
    const path =
      '/api' +
      def.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
        if (isInbound && name === 'id') return c.ids[i++]! % 5 === 0 ? GARBAGE_IDS[c.ids[1]! % GARBAGE_IDS.length]! : isMime ? mime.id : inbound.id;
        const pool = idsFor(def, name);
        return pool[c.ids[i++]! % pool.length]!;
      });
    const query = [c.query === undefined ? '' : queryText(mutate(c.query, c.queryMutation)), c.rawQuery ?? ''].filter(Boolean).join('&');
    const url = t.service.url + path + (query ? `?${query}` : '');

    const headers: Record<string, string> = {};
    let body: string | Buffer | undefined;
    if (def.method !== 'get') {
      const json = c.whole ?? (c.body === undefined && c.mutation.kind === 'none' ? undefined : toJsonText(mutate(c.body ?? {}, c.mutation)));
      const text = isMime ? mimeOf(json ?? '', c) : json;
      if (text !== undefined) {
        body = c.contentType === 'latin1' ? Buffer.from(text, 'latin1') : c.contentType === 'utf-16' ? Buffer.from(text, 'utf16le') : text;
        headers['content-type'] = {
          json: isMime ? 'message/rfc822' : 'application/json',
          none: '',
          'text/plain': 'text/plain',
          form: 'application/x-www-form-urlencoded',
          latin1: 'application/json; charset=latin1',
          'utf-16': 'application/json; charset=utf-16',
          'merge-patch': 'application/merge-patch+json',
          gzip: 'application/json',
        }[c.contentType];
        if (c.contentType === 'none') delete headers['content-type'];
        if (c.contentType === 'gzip') headers['content-encoding'] = 'gzip'; // not actually gzipped
      }
    }
    switch (c.auth) {
      case 'key':
        headers.authorization = `Bearer ${key}`;
        break;
      case 'cookie':
        headers.cookie = owner.cookie;
        headers['x-service-workspace'] = owner.workspaceId;
        break;
      case 'cookie-no-header':
        headers.cookie = owner.cookie;
        break;
      case 'cookie-bad-workspace':
        headers.cookie = owner.cookie;
        headers['x-service-workspace'] = [other.workspaceId, 'not-a-uuid', owner.workspaceId.toUpperCase(), ''][c.ids[1]! % 4]!;
        break;
      case 'garbage-key':
        headers.authorization = ['Bearer svc_' + '0'.repeat(32) + '_' + 'A'.repeat(43), 'Bearer', 'Basic eDp5', 'Bearer ' + 'x'.repeat(5000)][c.ids[1]! % 4]!;
        break;
      case 'garbage-cookie':
        headers.cookie = ['svc_session=%E0%A4%A', 'svc_session=', 'svc_session=%00', 'svc_session=' + 'a'.repeat(4000), '=;;=svc_session'][c.ids[1]! % 5]!;
        break;
      case 'none':
        break;
    }
    if (c.idempotencyKey !== null) headers['idempotency-key'] = c.idempotencyKey;
    if (isInbound) {
      const bytes = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
      headers['x-service-signature'] = c.signed
        ? createHmac('sha256', isMime ? mime.secret : inbound.secret)
            .update(bytes)
            .digest('hex')
        : 'f'.repeat(64);
      const now = Math.floor(clock.now().getTime() / 1000);
      headers['x-service-timestamp'] = c.timestamp === 'now' ? String(now) : c.timestamp === 'stale' ? String(now - 3600) : 'yesterday';
    }
    const bytes = body === undefined ? 0 : Buffer.byteLength(body);
    try {
      const res = await fetch(url, { method: def.method.toUpperCase(), headers, body: Buffer.isBuffer(body) ? new Uint8Array(body) : body });
      // A live stream (GET /api/events/stream) never ends: its first bytes are its answer, then it is closed.
      if (res.status === 200 && res.headers.get('content-type')?.startsWith('text/event-stream')) {
        const reader = res.body!.getReader();
        const first = await reader.read();
        await reader.cancel();
        return { reply: { status: res.status, headers: res.headers, text: new TextDecoder().decode(first.value) }, bytes, path };
      }
      return { reply: { status: res.status, headers: res.headers, text: await res.text() }, bytes, path };
    } catch (e) {
      // A body over the limit can be answered (413) and the connection closed while it is still uploading.
      if (bytes > BODY_LIMIT) return { reply: null, bytes, path };
      throw new Error(`request failed: ${def.method.toUpperCase()} ${path}: ${(e as Error).message} ${String((e as { cause?: unknown }).cause ?? '')}`);
    }
  }

  function checkEnvelope(r: Reply, where: string): void {
    let body: any;
    try {
      body = JSON.parse(r.text);
    } catch {
      throw new Error(`${where}: ${r.status} without a JSON error envelope: ${JSON.stringify(r.text.slice(0, 200))}`);
    }
    const ok =
      body?.type === 'error.list' &&
      typeof body.request_id === 'string' &&
      body.request_id === r.headers.get('x-request-id') &&
      Array.isArray(body.errors) &&
      body.errors.length > 0 &&
      body.errors.every((e: any) => typeof e?.code === 'string' && typeof e?.message === 'string' && (e.field === undefined || typeof e.field === 'string'));
    if (!ok) throw new Error(`${where}: ${r.status} with a malformed error envelope: ${r.text.slice(0, 300)}`);
  }

  it(`answers no 5xx, an error envelope for every 4xx, and changes nothing on a 4xx (${RUNS} cases per route, FUZZ_SEED=${SEED})`, async () => {
    const routes = t.service.routes.filter((d) => `${d.method.toUpperCase()} ${d.path}`.includes(ONLY));
    expect(routes.length, 'routes to fuzz').to.be.greaterThan(ONLY ? 0 : 25);
    const failures: string[] = [];
    const statuses: Record<string, Record<number, number>> = {};
    const answers: Record<string, Record<string, number>> = {};
    const timings: Record<string, number> = {};
    let known: number[] = [];
    for (const def of routes) {
      // the seed of a route follows its place among all routes, so FUZZ_ROUTE reruns it with the same cases
      const index = t.service.routes.indexOf(def);
      const name = `${def.method.toUpperCase()} /api${def.path}`;
      const counts: Record<number, number> = (statuses[name] = {});
      const codes: Record<string, number> = (answers[name] = {});
      const isInbound = def.rawBody === true;
      const seed = (SEED + index * 7919) | 0;
      const property = fc.asyncProperty(caseArb(def, isInbound ? INBOUND_BODY : def.body, pools), async (c) => {
        // Nothing else writes (no workers), so the heads only move on a 2xx: one read per case.
        const before = known;
        const { reply: r, path } = await send(def, c);
        const after = (known = await heads());
        if (!r) return;
        counts[r.status] = (counts[r.status] ?? 0) + 1;
        if (VERBOSE) {
          const code =
            r.status >= 400
              ? ((): string => {
                  try {
                    return JSON.parse(r.text).errors[0].code;
                  } catch {
                    return '-';
                  }
                })()
              : '';
          codes[`${r.status} ${code}`] = (codes[`${r.status} ${code}`] ?? 0) + 1;
        }
        const where = `${def.method.toUpperCase()} ${path}`;
        if (r.status >= 500) throw new Error(`${where}: ${r.status} ${r.text.slice(0, 300)}`);
        if (r.status >= 400) {
          const emptyInbound401 = isInbound && r.status === 401 && r.text === '';
          if (!emptyInbound401) checkEnvelope(r, where);
          if (after[0] !== before[0] || after[1] !== before[1])
            throw new Error(`${where}: a ${r.status} answer moved the feed head from ${before} to ${after}`);
        }
      });
      const started = Date.now();
      known = await heads();
      try {
        await fc.assert(property, { numRuns: runsFor(def), seed, endOnFailure: !SHRINK, includeErrorInReport: true });
      } catch (e) {
        const msg = (e as Error).message;
        failures.push(
          `${name} (FUZZ_SEED=${SEED}, route seed ${seed}; rerun with FUZZ_SEED=${SEED} FUZZ_ROUTE='${def.method.toUpperCase()} ${def.path}'):\n${msg.length > 6000 ? `${msg.slice(0, 6000)}…` : msg}`,
        );
      }
      timings[name] = Date.now() - started;
    }
    if (VERBOSE) for (const [name, c] of Object.entries(answers)) console.log(name, `${timings[name]} ms`, JSON.stringify(c));
    if (failures.length > 0) expect.fail(`${failures.length} of ${routes.length} routes failed (FUZZ_SEED=${SEED}):\n\n${failures.join('\n\n')}`);
    // every route was exercised
    for (const def of routes)
      expect(
        Object.values(statuses[`${def.method.toUpperCase()} /api${def.path}`]!).reduce((a, b) => a + b, 0),
        def.path,
      ).to.be.greaterThan(runsFor(def) / 2);
  });
});
