// `npm start`: the whole service in one process (API, projections, dispatcher).
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';
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
  console.error(e);
  process.exit(1);
});
