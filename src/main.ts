// `npm start`: the whole service in one process (API, projections, dispatcher).
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';
import { EmbeddedPostgresError } from './platform/db/embedded-postgres.js';
import { startService } from './service.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  const service = await startService({ config, log });
  // Ctrl-C reaches us twice under tsx (the runner relays it, the terminal sends it to the
  // group); only a repeat after a pause means "stop now, skip the graceful part".
  let firstSignalAt = 0;
  const stop = (signal: string) => {
    if (firstSignalAt && Date.now() - firstSignalAt > 2000) process.exit(1);
    if (firstSignalAt) return;
    firstSignalAt = Date.now();
    log.info({ signal }, 'shutting down');
    service.close().then(
      () => process.exit(0),
      (e) => {
        log.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
  // What the operator can act on is one line; anything else is a bug, with its stack.
  const listening = (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
  if (e instanceof EmbeddedPostgresError) console.error(`cannot start: ${e.message}`);
  else if (listening) console.error(`cannot start: ${(e as Error).message} (another program holds the port: set PORT)`);
  else console.error(e);
  process.exit(e instanceof EmbeddedPostgresError || listening ? 2 : 1);
});
