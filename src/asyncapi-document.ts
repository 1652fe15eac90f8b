// The service's AsyncAPI document (src/dispatch/asyncapi.ts over the event
// catalogue of every module and the webhooks module's routing rules), with the
// default retry base (WEBHOOK_RETRY_BASE_SECONDS).
// `npm run docs:asyncapi` writes it to docs/asyncapi.json; a test fails when that file is stale.
import { readFileSync } from 'node:fs';
import { buildAsyncApi } from './dispatch/asyncapi.js';
import { eventCatalogue } from './capabilities/index.js';
import { webhookRoutingRules } from './capabilities/webhooks/index.js';
import { loadConfig } from './config.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const asyncApiDocument = (): Record<string, unknown> =>
  buildAsyncApi(eventCatalogue(), { version: pkg.version, retryBaseSeconds: loadConfig({}).webhookRetryBaseSeconds, rules: webhookRoutingRules });
