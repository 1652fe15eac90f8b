// Operator commands: `npm run -s cli -- <command>` (`--help` on any of them).
//   workspace create   a workspace and its owner
//   keys create        an API key for a member, without the HTTP session dance
//   rebuild            drop every read model and replay the log into it
//   audit verify       recompute every workspace's hash chain and check its checkpoints (or an export, offline)
//   migrate            run database migrations and exit
// Works against the embedded default (attaching to it when the service is running
// on the same DATA_DIR) or DATABASE_URL. Results go to stdout as JSON; logs to stderr.
// Exit status: 0 done; 1 the command failed (a refusal, the database); 2 a usage
// error (unknown command or flag, a missing or malformed value, bad configuration).
//
// Parsing and --help load only commander and a few small modules; the service's
// modules are imported when a command runs, so usage errors answer at once.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig, type Config } from './config.js';
import { isScope, SCOPES, type Scope } from './api/scopes.js';
import { isUuid } from './platform/ids.js';
import { AppError } from './platform/errors.js';
import type { Logger } from './platform/logger.js';
import type { Database } from './service.js';
import type { CoreDeps } from './capabilities/capability.js';
import type { ProjectionEngine } from './projections/engine.js';

/** A usage error found after commander parsed the line (exit 2). */
class UsageError extends Error {}

/** The command ran and its answer is no (exit 1): its message says why, on stderr. */
class CommandFailed extends Error {}

function progressBar(done: number, total: number | null, rate: number): string {
  const width = 30;
  const frac = total ? Math.min(1, done / total) : 0;
  const bar = total ? `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ${(frac * 100).toFixed(0).padStart(3)}% ` : '';
  return `\r${bar}${done.toLocaleString('en-US')}${total ? `/${total.toLocaleString('en-US')}` : ''} events  ${Math.round(rate).toLocaleString('en-US')} events/s`;
}

// ---- value parsers: a bad value is a usage error, named by commander with its option ----

const email = (v: string): string => {
  if (!/^[^@\s]+@[^@\s]+$/.test(v)) throw new InvalidArgumentError('not an e-mail address.');
  return v;
};
const nonEmpty = (v: string): string => {
  if (v.trim() === '') throw new InvalidArgumentError('must not be empty.');
  return v;
};
const password = (v: string): string => {
  if (v.length < 8) throw new InvalidArgumentError('must be at least 8 characters.');
  return v;
};
const workspaceId = (v: string): string => {
  if (!isUuid(v)) throw new InvalidArgumentError('not a workspace id (a UUID).');
  return v.toLowerCase();
};
const scopes = (v: string): Scope[] => {
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !isScope(s));
  if (list.length === 0) throw new InvalidArgumentError('name at least one scope.');
  if (unknown.length) throw new InvalidArgumentError(`unknown scope ${unknown.join(', ')} (known: ${SCOPES.join(', ')}).`);
  return [...new Set(list)] as Scope[];
};

// ---- running against the database ----

interface Session {
  config: Config;
  log: Logger;
  database: Database;
}

async function withDatabase<T>(work: (s: Session) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const [{ default: pino }, { createLogger }, { openDatabase }] = await Promise.all([import('pino'), import('./platform/logger.js'), import('./service.js')]);
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, pino.destination(2));
  const database = await openDatabase(config, log, { adoptOrphans: false, pool: 4 });
  try {
    return await work({ config, log, database });
  } finally {
    await database.db.destroy();
    await database.cluster?.stop();
  }
}

async function withCore<T>(work: (deps: CoreDeps, engine: ProjectionEngine) => Promise<T>): Promise<T> {
  return withDatabase(async ({ config, log, database }) => {
    const { openCore } = await import('./service.js');
    const { deps, engine } = await openCore({ config, log }, database);
    try {
      return await work(deps, engine);
    } finally {
      await deps.store.close();
      await deps.notifier.close();
    }
  });
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function buildProgram(): Command {
  const program = new Command('npm run -s cli --')
    .description('Operator commands of the conversation service. Results go to stdout as JSON, logs to stderr.')
    .exitOverride()
    .allowExcessArguments(false)
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `
The database is DATABASE_URL, or the embedded Postgres in DATA_DIR (attached to while the service runs on it).
Exit status: 0 done, 1 the command failed, 2 a usage or configuration error.`,
    );

  const workspace = program.command('workspace').description('workspaces');
  workspace
    .command('create')
    .description('create a workspace and its owner; prints {"workspace_id","member_id","user_id",…}')
    .requiredOption('--name <name>', 'the workspace name', nonEmpty)
    .requiredOption('--owner-email <email>', "the owner's e-mail (an existing user must give their password)", email)
    .requiredOption('--owner-password <password>', "the owner's password (at least 8 characters)", password)
    .option('--owner-name <name>', "the owner's display name (default: the e-mail's local part)", nonEmpty)
    .action(async (o: { name: string; ownerEmail: string; ownerPassword: string; ownerName?: string }) => {
      const { createWorkspace } = await import('./capabilities/members/index.js');
      print(
        await withCore((deps) => createWorkspace(deps, { name: o.name, ownerEmail: o.ownerEmail, ownerPassword: o.ownerPassword, ownerName: o.ownerName })),
      );
    });

  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .description('mint an API key for a member; prints the key with its secret, shown this once')
    .requiredOption('--workspace <id>', 'the workspace id', workspaceId)
    .requiredOption('--member-email <email>', "the member's e-mail: the key acts as them, within their role", email)
    .requiredOption('--name <name>', 'a name for the key', nonEmpty)
    .requiredOption('--scopes <list>', `comma-separated scopes, e.g. conversations:read,conversations:write (known: ${SCOPES.join(', ')})`, scopes)
    .addHelpText(
      'after',
      '\nExample:\n  npm run -s cli -- keys create --workspace "$WS" --member-email ada@example.com --name ci --scopes conversations:read,events:read',
    )
    .action(async (o: { workspace: string; memberEmail: string; name: string; scopes: Scope[] }) => {
      if (o.name.length > 200) throw new UsageError('--name is longer than 200 characters');
      const { mintKeyForMember } = await import('./capabilities/keys/index.js');
      print(await withCore((deps) => mintKeyForMember(deps, { workspaceId: o.workspace, memberEmail: o.memberEmail, name: o.name, scopes: o.scopes })));
    });

  program
    .command('rebuild')
    .description('drop every read model and replay the whole log into it (one transaction; reads and writes wait)')
    .action(async () => {
      const { rebuildReadModels } = await import('./projections/rebuild.js');
      await withCore(async (deps, engine) => {
        const total = await deps.store.countAll();
        const result = await rebuildReadModels(deps.db, deps.store, engine, (p) => {
          process.stderr.write(progressBar(p.events, total, p.events / Math.max(p.elapsedMs / 1000, 0.001)));
        });
        const rate = result.events / Math.max(result.elapsedMs / 1000, 0.001);
        process.stderr.write('\n');
        print({ rebuilt: true, events: result.events, seconds: result.elapsedMs / 1000, events_per_second: Math.round(rate) });
      });
    });

  const audit = program.command('audit').description('the log as evidence (docs/audit.md)');
  audit
    .command('verify')
    .description(
      "recompute every workspace's hash chain from the log and check every stored checkpoint (and the witness's, with AUDIT_WITNESS_DIR); exit 1 naming the workspace and its first failing seq. With --file and --keys: verify an export offline (no database). With --trusted: also hold the log against checkpoints you kept",
    )
    .option('--file <export.ndjson>', 'an export (GET /api/audit/export) to verify offline, with --keys')
    .option('--keys <keys.json>', 'the public keys (GET /api/audit/keys) that verify its checkpoint')
    .option('--trusted <checkpoints.ndjson>', 'checkpoints kept earlier, one JSON object a line (GET /api/audit/checkpoint): the log must still reproduce each')
    .option('--workspace <id>', 'only this workspace (database mode)', workspaceId)
    .action(async (o: { file?: string; keys?: string; trusted?: string; workspace?: string }) => {
      const [{ verifyExportFile, keysFrom, trustedFrom }, { existsSync, readFileSync }] = await Promise.all([import('./audit-verify.js'), import('node:fs')]);
      let trusted: ReturnType<typeof trustedFrom> = [];
      if (o.trusted !== undefined) {
        if (!existsSync(o.trusted)) throw new UsageError(`--trusted: no such file ${o.trusted}`);
        try {
          trusted = trustedFrom(readFileSync(o.trusted, 'utf8'));
        } catch (e) {
          throw new UsageError(`--trusted: ${(e as Error).message}`);
        }
      }
      if (o.file !== undefined || o.keys !== undefined) {
        if (o.file === undefined || o.keys === undefined) throw new UsageError('--file and --keys go together');
        if (o.workspace !== undefined) throw new UsageError('--workspace is for the database; an export names its workspace itself');
        if (!existsSync(o.file)) throw new UsageError(`--file: no such file ${o.file}`);
        let keys: ReturnType<typeof keysFrom>;
        try {
          keys = keysFrom(JSON.parse(readFileSync(o.keys, 'utf8')));
        } catch (e) {
          throw new UsageError(`--keys: ${(e as Error).message}`);
        }
        const report = await verifyExportFile(o.file, keys, trusted);
        print(report);
        const f = report.failure;
        if (f) throw new CommandFailed(`workspace ${f.workspace_id ?? '(unknown)'}: first failing seq ${f.seq ?? '(none)'} (line ${f.line}): ${f.reason}`);
        return;
      }
      const { verifyChains, fileWitness } = await import('./capabilities/audit-chain/index.js');
      const report = await withCore(async (deps) => {
        // A progress bar only for a person watching: a pipe or a log gets the result alone.
        const tty = process.stderr.isTTY === true;
        const total = tty && !o.workspace ? await deps.store.countAll() : null;
        const started = Date.now();
        const progress = tty
          ? (done: number) => process.stderr.write(progressBar(done, total, done / Math.max((Date.now() - started) / 1000, 0.001)))
          : undefined;
        const r = await verifyChains(deps, {
          workspaces: o.workspace ? [o.workspace] : undefined,
          progress,
          trusted: trusted.map((t) => ({ tenant_id: t.tenant_id, seq: t.seq, hash: t.hash, from: `--trusted line ${t.line}` })),
          witness: deps.config.auditWitnessDir ? fileWitness(deps.config.auditWitnessDir) : null,
        });
        if (tty) process.stderr.write('\n');
        return r;
      });
      print(report);
      if (!report.verified) {
        throw new CommandFailed(
          [
            ...report.refused_keys.map((k) => `audit_signing_keys: kid ${k.kid} is not the service's: ${k.reason}`),
            ...report.failures.map((f) => `workspace ${f.workspace_id}: first failing seq ${f.seq}: ${f.reason}`),
          ].join('\n'),
        );
      }
    });

  program
    .command('migrate')
    .description('run the database migrations and exit')
    .action(async () => {
      await withDatabase(async () => print({ migrated: true }));
    });

  return program;
}

/** Runs the command line; resolves to the exit status. */
async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version print and succeed; everything else commander refuses is a usage error
      // (its message is already on stderr).
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 2;
    }
    if (e instanceof UsageError) {
      console.error(`error: ${e.message}\n(add --help for usage)`);
      return 2;
    }
    if (e instanceof CommandFailed) {
      console.error(e.message);
      return 1;
    }
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 2;
    }
    if (e instanceof AppError) {
      console.error(`${e.code}: ${e.message}`);
      return 1;
    }
    console.error(e);
    return 1;
  }
}

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
