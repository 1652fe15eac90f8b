// Bootstraps a tenant the way an operator and a user would: the workspace and
// its owner through createWorkspace (what `npm run cli -- workspace create`
// runs), then over HTTP against the running service: sign in, mint an API
// key, create an api channel with a known webhook secret. A service keeping its
// log on EventStoreDB is bootstrapped through the same store (openLog), so it
// finds the workspace where it reads.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createWorkspace } from '../../src/capabilities/members/index.js';
import { DEFAULT_HASH_COST } from '../../src/capabilities/users/index.js';
import { allProjectors, eventCatalogue, personalObjects } from '../../src/capabilities/index.js';
import { Forgettable } from '../../src/eventstore/forgettable.js';
import { createSealer } from '../../src/platform/crypto/seal.js';
import { SECRETS_KEY } from './service.js';
import { CommandShell } from '../../src/commands/shell.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import type { EventStore } from '../../src/eventstore/store.port.js';
import { systemClock } from '../../src/platform/clock.js';
import { createDb } from '../../src/platform/db/database.js';
import { tenantScope } from '../../src/platform/db/tenant-scope.js';
import { randomIds } from '../../src/platform/ids.js';
import { ProjectionEngine } from '../../src/projections/engine.js';
import { closeKnex } from './knex-close.js';

export interface Tenant {
  name: string;
  workspaceId: string;
  memberId: string;
  cookie: string;
  /** bearer secret of an API key with every scope the owner holds */
  key: string;
  keyId: string;
  channelId: string;
  channelSecret: string;
}

const SCOPES = ['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write', 'settings:read', 'settings:write', 'events:read'];

export class Bootstrapper {
  readonly db: Knex;
  private readonly shell: CommandShell;
  private readonly log: EventStore;

  /** `openLog`: the store the service keeps its log in, on this database (the Postgres store when not given) */
  constructor(
    databaseUrl: string,
    private readonly serviceUrl: string,
    openLog?: (db: Knex) => EventStore,
  ) {
    this.db = createDb(databaseUrl, { max: 2 });
    this.log = openLog ? openLog(this.db) : new PostgresEventStore(this.db, null);
    // Sealed with the key the bench's service runs with, so the service opens what this seeds.
    const forgettable = new Forgettable(eventCatalogue(), createSealer({ data_key: SECRETS_KEY }), personalObjects());
    this.shell = new CommandShell(
      this.log,
      this.db,
      new ProjectionEngine(allProjectors(), { logInDatabase: this.log.kind === 'postgres' }),
      randomIds,
      forgettable,
      tenantScope(this.db, { enabled: true }),
    );
  }

  async http(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers; text: string }> {
    const res = await fetch(this.serviceUrl + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  }

  async expect(status: number, method: string, path: string, body: unknown, headers: Record<string, string>) {
    const r = await this.http(method, path, body, headers);
    if (r.status !== status) throw new Error(`bootstrap: ${method} ${path} answered ${r.status}, expected ${status}: ${r.text.slice(0, 500)}`);
    return r;
  }

  async tenant(name: string): Promise<Tenant> {
    const tag = randomBytes(4).toString('hex');
    const email = `bench-${name}-${tag}@bench.example.com`;
    const password = `bench-password-${tag}`;
    const ws = await createWorkspace(
      { db: this.db, shell: this.shell, clock: systemClock, ids: randomIds, config: { passwordHashCost: DEFAULT_HASH_COST } },
      { name: `Bench ${name}`, ownerEmail: email, ownerPassword: password },
    );
    const session = await this.expect(201, 'POST', '/api/session', { email, password }, {});
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    const asOwner = { cookie, 'x-service-workspace': ws.workspace_id };
    const key = await this.expect(201, 'POST', '/api/keys', { name: `bench ${name}`, scopes: SCOPES }, asOwner);
    const channelSecret = `bench-channel-secret-${tag}`;
    const channel = await this.expect(
      201,
      'POST',
      '/api/channels',
      { kind: 'api', name: `Bench bridge ${name}`, default_team_id: null, webhook_secret: channelSecret },
      asOwner,
    );
    return {
      name,
      workspaceId: ws.workspace_id,
      memberId: ws.member_id,
      cookie,
      key: key.body.secret,
      keyId: key.body.id,
      channelId: channel.body.id,
      channelSecret,
    };
  }

  async close(): Promise<void> {
    // The Postgres store's close leaves the knex alone (it is ours); EventStoreDB's disposes of its client.
    await this.log.close();
    await closeKnex(this.db);
  }
}
