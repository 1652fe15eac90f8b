// Operator commands. `npm run cli -- <command>`:
//   workspace create --name <name> --owner-email <email> --owner-password <password> [--owner-name <name>]
//   rebuild     drop every read model and replay the log into it
//   migrate     run database migrations and exit
// Works against the embedded default (attaching to it when the service is running
// on the same DATA_DIR) or DATABASE_URL. Results go to stdout as JSON; logs to stderr.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';
import { openCore, openDatabase } from './service.js';
import { createWorkspace } from './capabilities/members/index.js';
import { rebuildReadModels } from './projections/rebuild.js';
import { AppError } from './platform/errors.js';
import pino from 'pino';

const USAGE = `usage:
  npm run cli -- workspace create --name <name> --owner-email <email> --owner-password <password> [--owner-name <name>]
  npm run cli -- rebuild
  npm run cli -- migrate`;

function progressBar(done: number, total: number | null, rate: number): string {
  const width = 30;
  const frac = total ? Math.min(1, done / total) : 0;
  const bar = total ? `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ${(frac * 100).toFixed(0).padStart(3)}% ` : '';
  return `\r${bar}${done.toLocaleString('en-US')}${total ? `/${total.toLocaleString('en-US')}` : ''} events  ${Math.round(rate).toLocaleString('en-US')} events/s`;
}

async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, pino.destination(2));
  const [cmd, sub] = argv;
  if (!cmd || (cmd === 'workspace' && sub !== 'create') || !['workspace', 'rebuild', 'migrate'].includes(cmd)) {
    console.error(USAGE);
    return 2;
  }
  const database = await openDatabase(config, log, { adoptOrphans: false, pool: 4 });
  try {
    if (cmd === 'migrate') {
      process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
      return 0;
    }
    const { deps, engine } = await openCore({ config, log }, database);
    try {
      if (cmd === 'workspace') {
        const { values } = parseArgs({
          args: argv.slice(2),
          options: { name: { type: 'string' }, 'owner-email': { type: 'string' }, 'owner-password': { type: 'string' }, 'owner-name': { type: 'string' } },
        });
        const missing = ['name', 'owner-email', 'owner-password'].filter((k) => !values[k as keyof typeof values]);
        if (missing.length) {
          console.error(`missing: ${missing.map((m) => `--${m}`).join(', ')}\n${USAGE}`);
          return 2;
        }
        if (!/^[^@\s]+@[^@\s]+$/.test(values['owner-email']!)) {
          console.error('--owner-email is not an e-mail address');
          return 2;
        }
        if (values['owner-password']!.length < 8) {
          console.error('--owner-password must be at least 8 characters');
          return 2;
        }
        const out = await createWorkspace(deps, {
          name: values.name!,
          ownerEmail: values['owner-email']!,
          ownerPassword: values['owner-password']!,
          ownerName: values['owner-name'],
        });
        process.stdout.write(`${JSON.stringify(out)}\n`);
        return 0;
      }
      const total = await deps.store.countAll();
      const result = await rebuildReadModels(deps.db, deps.store, engine, (p) => {
        process.stderr.write(progressBar(p.events, total, p.events / Math.max(p.elapsedMs / 1000, 0.001)));
      });
      const rate = result.events / Math.max(result.elapsedMs / 1000, 0.001);
      process.stderr.write('\n');
      process.stdout.write(`${JSON.stringify({ rebuilt: true, events: result.events, seconds: result.elapsedMs / 1000, events_per_second: Math.round(rate) })}\n`);
      return 0;
    } finally {
      await deps.store.close();
      await deps.notifier.close();
    }
  } finally {
    await database.db.destroy();
    await database.cluster?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    if (e instanceof ConfigError) console.error(e.message);
    else if (e instanceof AppError) console.error(`${e.code}: ${e.message}`);
    else console.error(e);
    process.exit(1);
  },
);
