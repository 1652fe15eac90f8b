import { pino, type Logger, type DestinationStream } from 'pino';
import type { LogLevel } from '../config.js';

export type { Logger };

// Secrets must never reach a log line; redaction is a second wall behind
// "never log request bodies or credentials".
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-signature"]',
  '*.secret',
  '*.webhook_secret',
  '*.password',
];

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' }, base: undefined }, destination);
}
