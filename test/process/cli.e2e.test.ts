// The operator CLI (src/cli.ts, commander) as a child process: --help on each
// command, usage errors exit 2 with a clear message, and `keys create` mints a
// key that works against the API without any HTTP session.
import { expect } from 'chai';
import { childEnv, runCli } from '../support/process.js';
import { startTestService, type TestService } from '../support/service.js';

describe('operator CLI (commander)', function () {
  this.timeout(240_000);
  let t: TestService;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    t = await startTestService('cli');
    env = childEnv({ DATABASE_URL: t.testDb.url, LOG_LEVEL: 'warn' });
  });
  after(async () => t.close());

  it('prints --help for the program and for each command, exit 0', async () => {
    const [top, ws, keys, rebuild] = await Promise.all([
      runCli(['--help'], env),
      runCli(['workspace', 'create', '--help'], env),
      runCli(['keys', 'create', '--help'], env),
      runCli(['rebuild', '--help'], env),
    ]);
    for (const r of [top, ws, keys, rebuild]) expect(r.exit.code, r.stderr).to.equal(0);
    expect(top.stdout).to.match(/Usage: npm run -s cli -- \[options\] \[command\]/);
    for (const c of ['workspace', 'keys', 'rebuild', 'migrate']) expect(top.stdout).to.include(c);
    expect(ws.stdout).to.include('--owner-email <email>').and.include('--owner-password <password>');
    expect(keys.stdout).to.include('--workspace <id>').and.include('--member-email <email>').and.include('--scopes <list>');
    expect(rebuild.stdout).to.include('replay');
  });

  it('refuses unknown commands and flags, missing and malformed values with a message, exit 2', async () => {
    const ws = ['workspace', 'create', '--name', 'X', '--owner-email', 'a@example.com', '--owner-password', 'long enough pw'];
    const key = ['keys', 'create', '--workspace', '6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b', '--member-email', 'a@example.com', '--name', 'k'];
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command 'frobnicate'/],
      [[...ws, '--bogus'], /unknown option '--bogus'/],
      [['keys', 'create', '--workspace'], /option '--workspace <id>' argument missing/],
      [[...key], /required option '--scopes <list>' not specified/],
      [[...key, '--scopes', 'conversations:read,conversations:fly'], /unknown scope conversations:fly/],
      [['keys', 'create', '--workspace', 'not-a-uuid', '--member-email', 'a@example.com', '--name', 'k', '--scopes', 'events:read'], /not a workspace id/],
      [['workspace', 'create', '--name', 'X', '--owner-email', 'nope', '--owner-password', 'long enough pw'], /not an e-mail address/],
      [['migrate', 'now'], /too many arguments/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
    results.forEach((r, i) => {
      expect(r.exit.code, `${cases[i]![0].join(' ')}: ${r.stderr}`).to.equal(2);
      expect(r.stderr, cases[i]![0].join(' '))
        .to.match(cases[i]![1])
        .and.match(/--help/);
      expect(r.stdout).to.equal('');
    });
  });

  describe('keys create', () => {
    const email = `cli-owner-${Date.now()}@example.com`;
    let ws: Awaited<ReturnType<typeof runCli>>;
    before(async () => {
      // the workspace, by the CLI's own workspace create
      ws = await runCli(['workspace', 'create', '--name', 'CLI Co', '--owner-email', email, '--owner-password', 'correct horse battery'], env);
      expect(ws.exit.code, ws.stderr).to.equal(0);
      expect(ws.json).to.include({ name: 'CLI Co', owner_email: email });
    });

    it('mints a working key for a member, printing the secret once as JSON', async () => {
      const workspaceId = ws.json.workspace_id as string;

      const minted = await runCli(
        ['keys', 'create', '--workspace', workspaceId, '--member-email', email.toUpperCase(), '--name', 'ci', '--scopes', 'conversations:read, events:read'],
        env,
      );
      expect(minted.exit.code, minted.stderr).to.equal(0);
      expect(minted.json).to.include({ type: 'api_key', workspace_id: workspaceId, member_id: ws.json.member_id, role: 'owner', name: 'ci' });
      expect(minted.json.scopes).to.deep.equal(['conversations:read', 'events:read']);
      expect(minted.json.secret).to.match(/^svc_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);

      const me = await t.client.get('/api/me', { key: minted.json.secret });
      expect(me.status, me.text).to.equal(200);
      expect(me.body).to.include({ via: 'api_key', api_key_id: minted.json.id, member_id: ws.json.member_id });
      expect(me.body.scopes).to.deep.equal(['conversations:read', 'events:read']);
      const feed = await t.client.get('/api/events?types=api_key.created', { key: minted.json.secret });
      expect(feed.body.data.map((e: { payload: { key_id: string } }) => e.payload.key_id)).to.include(minted.json.id);
      // its scopes hold: no settings:read
      expect((await t.client.get('/api/channels', { key: minted.json.secret })).status).to.equal(403);
    });

    it('refuses a stranger to the workspace and scopes beyond the role, exit 1', async () => {
      const [stranger, beyond] = await Promise.all([
        runCli(['keys', 'create', '--workspace', ws.json.workspace_id, '--member-email', 'nobody@example.com', '--name', 'x', '--scopes', 'events:read'], env),
        (async () => {
          const owner = await t.client.post('/api/session', { email, password: 'correct horse battery' });
          const cookie = (owner.headers.get('set-cookie') ?? '').split(';')[0]!;
          const viewerEmail = `cli-viewer-${Date.now()}@example.com`;
          const inv = await t.client.post('/api/members/invites', { email: viewerEmail, role: 'viewer' }, { cookie, workspace: ws.json.workspace_id });
          expect((await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'V', password: 'viewer password' })).status).to.equal(202);
          return runCli(
            ['keys', 'create', '--workspace', ws.json.workspace_id, '--member-email', viewerEmail, '--name', 'x', '--scopes', 'settings:write'],
            env,
          );
        })(),
      ]);
      expect(stranger.exit.code).to.equal(1);
      expect(stranger.stderr).to.match(/member_not_found: .*nobody@example\.com/);
      expect(beyond.exit.code).to.equal(1);
      expect(beyond.stderr).to.match(/scope_exceeds_role: .*settings:write/);
    });
  });
});
