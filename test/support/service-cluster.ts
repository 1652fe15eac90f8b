// Service processes sharing one scratch database and data directory, for tests
// that SIGKILL them (jobs, automation): the database and directory are made in
// a `before` hook and dropped in an `after` hook, which also kills what is
// still running. A workspace is made over the CLI, its owner signed in over one
// of the processes.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createTestDb, type TestDb } from './db.js';
import { childEnv, runCli, signInOver, spawnService, type ServiceProcess } from './process.js';

export interface ServiceCluster {
  readonly testDb: TestDb;
  /** the environment every process of the cluster starts with */
  env(): Record<string, string>;
  start(): Promise<ServiceProcess>;
  /** a workspace made over the CLI, its owner signed in over `via`: the options a request of the owner takes */
  workspace(via: ServiceProcess, name: string, email: string): Promise<{ tenant: string; as: () => { cookie: string; workspace: string } }>;
}

export function serviceCluster(label: string, extraEnv: Record<string, string>): ServiceCluster {
  let testDb: TestDb | undefined;
  let dataDir: string | undefined;
  const started: ServiceProcess[] = [];

  before(async () => {
    testDb = await createTestDb(label, { checkEvents: true });
    dataDir = await mkdtemp(path.join(os.tmpdir(), `cs-${label}-`));
  });
  after(async () => {
    for (const s of started) {
      s.kill('SIGKILL');
      await s.exited;
    }
    await testDb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const cluster: ServiceCluster = {
    get testDb() {
      if (!testDb) throw new Error(`serviceCluster(${label}): used before its before() hook ran`);
      return testDb;
    },
    env: () => ({
      DATABASE_URL: cluster.testDb.url,
      DATA_DIR: dataDir!,
      SERVICE_SECRETS_KEY: `${label}-secrets-key-0123456789abcdef`,
      SERVICE_CHANNELS_SECRET: `${label}-channels-secret-0123456789`,
      ...extraEnv,
    }),
    async start() {
      const s = await spawnService(cluster.env());
      started.push(s);
      return s;
    },
    async workspace(via, name, email) {
      const password = 'correct horse battery';
      const cli = await runCli(
        ['workspace', 'create', '--name', name, '--owner-email', email, '--owner-password', password],
        childEnv({ ...cluster.env(), LOG_LEVEL: 'warn' }),
      );
      expect(cli.exit.code, cli.stderr).to.equal(0);
      const tenant: string = cli.json.workspace_id;
      const session = await signInOver(via.client, email, password);
      return { tenant, as: () => ({ cookie: session.cookie, workspace: tenant }) };
    },
  };
  return cluster;
}
