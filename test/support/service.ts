// Starts the real service in-process on 127.0.0.1 against a database of the
// test file's own, with an injectable clock and captured logs.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.js';
import { ManualClock, type Clock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';
import { startService, type Service } from '../../src/service.js';
import type { CapabilityModule } from '../../src/capabilities/capability.js';
import { createWorkspace } from '../../src/capabilities/members/index.js';
import { createTestDb, type TestDb } from './db.js';
import { testEventStoreEnv } from './event-store.js';
import { Client } from './http.js';

export const CHANNELS_SECRET = 'test-channels-secret-0123456789abcdef';

export interface TestService {
  service: Service;
  client: Client;
  clock: Clock;
  testDb: TestDb;
  logs: string[];
  close(): Promise<void>;
}

export async function startTestService(
  label: string,
  /** `testDb`: a database of the caller's (on a Postgres the test stops and starts), instead of a clone of the template */
  opts: { clock?: Clock; env?: Record<string, string | undefined>; extraModules?: CapabilityModule[]; testDb?: TestDb } = {},
): Promise<TestService> {
  const testDb = opts.testDb ?? (await createTestDb(label, { max: 30, checkEvents: true }));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cs-svc-'));
  const config = loadConfig({
    DATABASE_URL: testDb.url,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SERVICE_CHANNELS_SECRET: CHANNELS_SECRET,
    // scrypt at N = 2^10, not 2^15: the suite sets and checks hundreds of passwords, 0.1 s of CPU each at the
    // production cost. The hashes name their cost, so nothing else changes; the throttle tests ask for 15.
    PASSWORD_HASH_COST: '10',
    // TEST_EVENT_STORE=eventstoredb: the log in the run's EventStoreDB (test/support/event-store.ts), unless the test names its own
    ...(opts.env && 'EVENTSTORE_URL' in opts.env ? {} : testEventStoreEnv(testDb.url)),
    ...opts.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const clock = opts.clock ?? new ManualClock(new Date());
  let service: Service;
  try {
    service = await startService({ config, clock, log: createLogger('info', sink), extraModules: opts.extraModules });
  } catch (e) {
    // Leave nothing behind when the service cannot start (the caller never gets a close()).
    await testDb.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    service,
    client: new Client(service.url),
    clock,
    testDb,
    logs,
    close: async () => {
      await service.close();
      await testDb.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;

export interface Member {
  workspaceId: string;
  memberId: string;
  email: string;
  password: string;
  cookie: string;
}

/** A workspace with its owner, created the way the CLI does it, and signed in. */
export async function newWorkspace(t: TestService, name = 'Acme'): Promise<Member> {
  const email = `owner${++counter}-${Date.now()}@example.com`;
  const password = 'correct horse battery';
  const out = await createWorkspace(t.service.deps, { name, ownerEmail: email, ownerPassword: password });
  return { workspaceId: out.workspace_id, memberId: out.member_id, email, password, cookie: await signIn(t, email, password) };
}

export async function signIn(t: TestService, email: string, password: string): Promise<string> {
  const r = await t.client.post('/api/session', { email, password });
  expect(r.status, r.text).to.equal(201);
  const setCookie = r.headers.get('set-cookie') ?? '';
  return setCookie.split(';')[0]!;
}

/** What a workspace admin's integration key holds in most e2e files: every scope on settings, conversations, contacts, and the feed. */
export const ADMIN_SCOPES = [
  'settings:read',
  'settings:write',
  'conversations:read',
  'conversations:write',
  'contacts:read',
  'contacts:write',
  'contacts:delete',
  'events:read',
] as const;

export async function mintKey(
  t: TestService,
  m: Pick<Member, 'cookie' | 'workspaceId'>,
  scopes: string[],
  name = 'test key',
): Promise<{ id: string; secret: string }> {
  const r = await t.client.post('/api/keys', { name, scopes }, { cookie: m.cookie, workspace: m.workspaceId });
  expect(r.status, r.text).to.equal(201);
  return { id: r.body.id, secret: r.body.secret };
}

/** Invites `role` into the workspace and accepts, returning the new member signed in. */
export async function addMember(t: TestService, owner: Member, role: string): Promise<Member> {
  const email = `member${++counter}-${Date.now()}@example.com`;
  const password = 'another secret pw';
  const inv = await t.client.post('/api/members/invites', { email, role }, { cookie: owner.cookie, workspace: owner.workspaceId });
  expect(inv.status, inv.text).to.equal(201);
  const acc = await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'New Member', password });
  expect(acc.status, acc.text).to.equal(202);
  // The acceptance says nothing of the account (members.routes.ts): the membership shows when signing in.
  const session = await t.client.post('/api/session', { email, password });
  expect(session.status, session.text).to.equal(201);
  const joined = session.body.workspaces.find((w: { id: string }) => w.id === owner.workspaceId);
  expect(joined, session.text).to.not.equal(undefined);
  return { workspaceId: owner.workspaceId, memberId: joined.member_id, email, password, cookie: (session.headers.get('set-cookie') ?? '').split(';')[0]! };
}
