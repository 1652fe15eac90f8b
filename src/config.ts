// Configuration comes only from the environment and is validated once at start.
// Every bad value is reported (not just the first), so an operator fixes them in one go.
import { isIP } from 'node:net';
import path from 'node:path';

import type { LogLevel } from './platform/logger.js';
import { parsePublicKeys, parseSigningKey } from './platform/crypto/signing.js';

export type { LogLevel };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** the owner's login: runs the migrations and owns the event log, which the DATABASE_URL role may only read and append */
  databaseOwnerUrl: string | null;
  eventstoreUrl: string | null;
  /** prefix of the workspace streams in EventStoreDB (`tenant-`); another lets deployments share one server */
  eventstoreStreamPrefix: string;
  channelsSecret: string | null;
  secretsKey: string | null;
  logLevel: LogLevel;
  channelSecretGraceSeconds: number;
  webhookAllowlist: string[];
  webhookTimeoutMs: number;
  webhookRetryBaseSeconds: number;
  /** how long a teammate may unsend their own comment (seconds) */
  unsendWindowSeconds: number;
  /** the event stream (GET /api/events/stream): a comment line this often when nothing else is sent */
  streamHeartbeatMs: number;
  /** a stream whose client has not taken what was written for this long is cut (it resumes with Last-Event-ID) */
  streamStallMs: number;
  /** open streams a caller (a key, a member's session) may hold in one process */
  streamMaxPerCaller: number;
  /** how often an idle stream looks for events without being woken (EventStoreDB; a lost NOTIFY) */
  streamPollMs: number;
  /** the largest file one upload may be (bytes) */
  uploadMaxBytes: number;
  /** what one workspace's uploads may hold together (bytes) */
  uploadStorageMaxBytes: number;
  /** how long an upload waits to be attached before it expires (seconds) */
  uploadTtlSeconds: number;
  /** how long a bridge's download URL of an attached file works (seconds) */
  uploadUrlTtlSeconds: number;
  bodyLimit: string;
  workers: boolean;
  /** requests run behind Postgres row-level security (off only to measure its cost) */
  rowLevelSecurity: boolean;
  /** a workspace's concurrent commands share one transaction (Postgres store; off to measure it) */
  groupCommit: boolean;
  /** statements sent often go to Postgres as named prepared statements (off behind a pooler that cannot carry them) */
  preparedStatements: boolean;
  /** how long a client may take to send the request headers (slowloris bound) */
  httpHeadersTimeoutMs: number;
  /** how long a client may take to send the whole request */
  httpRequestTimeoutMs: number;
  /** how long an idle keep-alive connection stays open */
  httpKeepAliveTimeoutMs: number;
  /** proxies (IPs, CIDRs, or loopback / linklocal / uniquelocal) whose X-Forwarded-For is believed */
  trustProxy: string[];
  /** when set, GET /metrics needs `Authorization: Bearer <token>` */
  metricsToken: string | null;
  /** how long a finished subject-access export can be downloaded before its file is deleted */
  exportTtlHours: number;
  /** bulk jobs: items one claim takes, how long a claim is held, and how often an idle worker looks for work */
  jobsBatch: number;
  jobsLeaseMs: number;
  jobsPollMs: number;
  /** AUTOMATION_POLL_MS: the rules worker's poll tick (commits wake it sooner) */
  automationPollMs: number;
  /** AUTOMATION_LEASE_MS: how long a claimed rule action is held before another process may run it */
  automationLeaseMs: number;
  /** outbound worker: recipients one claim takes */
  outboundBatch: number;
  /** outbound worker: how long a claim on recipients holds before another process may take them over */
  outboundLeaseMs: number;
  /** outbound worker: a pause between two recipients of one worker (a send-rate throttle; 0 = none) */
  outboundIntervalMs: number;
  /** outbound worker: the poll tick (NOTIFY wakes it sooner) */
  outboundPollMs: number;
  /** how long the audit log keeps its entries beside the log (sign-ins, downloads, ...); events are never dropped */
  auditRetentionDays: number;
  /** the outbound SMTP relay (smtp:// or smtps://, credentials in the URL); null: no mail is sent */
  smtpRelayUrl: string | null;
  /** the sender of the mail the service sends (invites, password resets) */
  mailFrom: string;
  /** the SMTP receiver of e-mail channels listens here; null: no receiver (the raw MIME route still works) */
  smtpPort: number | null;
  smtpHost: string;
  /** the largest message the receiver takes (552 beyond) */
  smtpMaxBytes: number;
  /** connections the receiver holds at once (421 beyond) */
  smtpMaxClients: number;
  /** recipients one message may name (452 beyond: the sender sends the rest again) */
  smtpMaxRecipients: number;
  /** messages one connection may send (421 then: the sender reconnects) */
  smtpMaxMessagesPerConnection: number;
  /** a message's time budget in a parser thread, per attempt (full, then text only) */
  mailParseTimeoutMs: number;
  /** parser threads (default: one per core but one) */
  mailParseThreads: number | null;
  /** heap of each parser thread, in MB */
  mailParseHeapMb: number;
  /** a message's time budget for sender authentication (mailauth) in a parser thread, its DNS waits included */
  mailAuthTimeoutMs: number;
  /** PEM files of the receiver's STARTTLS certificate and key; null: no STARTTLS */
  smtpTls: { certFile: string; keyFile: string } | null;
  /** where people reach the service (its web front): links in e-mails start with it */
  publicUrl: string;
  /** how long a password-reset link works */
  passwordResetTtlMinutes: number;
  /** scrypt's cost for passwords set from now on (N = 2^cost); below 15 only for test suites */
  passwordHashCost: number;
  /** hash-chain the log (docs/audit.md); off only for the bench, to measure what the chain costs */
  auditChain: boolean;
  /** the Ed25519 key that signs audit checkpoints (PKCS#8 PEM or a base64url 32-byte seed); null: generated once in DATA_DIR */
  auditSigningKey: string | null;
  /** how often a signed checkpoint is issued for every workspace whose log moved (0: never on a schedule) */
  auditCheckpointIntervalSeconds: number;
  /** a folder (on storage the database's administrators cannot write) where every checkpoint is also appended; null: none */
  auditWitnessDir: string | null;
  /** public keys, besides its own, whose checkpoints the service takes as its own (keys it signed with before a rotation), by kid */
  auditTrustedKeys: Map<string, string>;
  /** API rate limits (docs/api-guide.md: Rate limits); null when RATE_LIMITS=off (only to measure their cost) */
  rateLimits: { windowSeconds: number; key: number; workspace: number; expensive: number; channel: number } | null;
  /** an e-mail channel needs its domain verified by its workspace (POST /api/email_domains); false when EMAIL_DOMAIN_VERIFICATION=off */
  emailDomainVerification: boolean;
  /** the DNS servers every look-up of the e-mail edge asks (DMARC, SPF, DKIM, domain verification), `host:port`; null: the system resolver */
  dnsServers: string[] | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Every environment variable the service reads (tools that spawn it clear exactly these). */
export const CONFIG_VARS = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_OWNER_URL',
  'EVENTSTORE_URL',
  'EVENTSTORE_STREAM_PREFIX',
  'SERVICE_CHANNELS_SECRET',
  'SERVICE_SECRETS_KEY',
  'LOG_LEVEL',
  'CHANNEL_SECRET_GRACE_SECONDS',
  'WEBHOOK_ALLOWLIST',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_RETRY_BASE_SECONDS',
  'UNSEND_WINDOW_SECONDS',
  'UPLOAD_MAX_BYTES',
  'UPLOAD_STORAGE_MAX_BYTES',
  'UPLOAD_TTL_SECONDS',
  'UPLOAD_URL_TTL_SECONDS',
  'BODY_LIMIT',
  'WORKERS',
  'ROW_LEVEL_SECURITY',
  'GROUP_COMMIT',
  'PREPARED_STATEMENTS',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_KEEPALIVE_TIMEOUT_MS',
  'TRUST_PROXY',
  'METRICS_TOKEN',
  'EXPORT_TTL_HOURS',
  'OUTBOUND_BATCH',
  'JOBS_BATCH',
  'JOBS_LEASE_MS',
  'JOBS_POLL_MS',
  'OUTBOUND_LEASE_MS',
  'OUTBOUND_INTERVAL_MS',
  'OUTBOUND_POLL_MS',
  'AUDIT_RETENTION_DAYS',
  'SMTP_RELAY_URL',
  'MAIL_FROM',
  'SMTP_PORT',
  'SMTP_HOST',
  'SMTP_MAX_BYTES',
  'SMTP_MAX_CLIENTS',
  'SMTP_MAX_RECIPIENTS',
  'SMTP_MAX_MESSAGES_PER_CONNECTION',
  'MAIL_PARSE_TIMEOUT_MS',
  'MAIL_PARSE_THREADS',
  'MAIL_PARSE_HEAP_MB',
  'MAIL_AUTH_TIMEOUT_MS',
  'SMTP_TLS_CERT_FILE',
  'SMTP_TLS_KEY_FILE',
  'PUBLIC_URL',
  'PASSWORD_RESET_TTL_MINUTES',
  'PASSWORD_HASH_COST',
  'AUDIT_CHAIN',
  'SERVICE_AUDIT_SIGNING_KEY',
  'AUDIT_CHECKPOINT_INTERVAL_SECONDS',
  'AUDIT_WITNESS_DIR',
  'AUDIT_TRUSTED_KEYS',
  'RATE_LIMITS',
  'RATE_LIMIT_WINDOW_SECONDS',
  'RATE_LIMIT_KEY',
  'RATE_LIMIT_WORKSPACE',
  'RATE_LIMIT_EXPENSIVE',
  'RATE_LIMIT_CHANNEL',
  'EMAIL_DOMAIN_VERIFICATION',
  'DNS_SERVERS',
] as const;

type Env = Record<string, string | undefined>;

/**
 * The hosts of a connection string that may list several (EventStoreDB's
 * `esdb://[user:password@]host[:port],host[:port]...[/][?settings]`, which a
 * WHATWG URL refuses: a comma in the port). Empty strings for empty entries.
 */
function hostsOf(raw: string): string[] {
  const rest = raw.slice(raw.indexOf('//') + 2);
  const authority = rest.split(/[/?]/, 1)[0]!;
  return authority.slice(authority.lastIndexOf('@') + 1).split(',');
}

/** The connection string with its first host alone: a URL to check the scheme, credentials and settings with. */
function firstHostOnly(raw: string): string {
  const at = raw.indexOf('//');
  if (at < 0) return raw;
  const rest = raw.slice(at + 2);
  const authority = rest.split(/[/?]/, 1)[0]!;
  const creds = authority.slice(0, authority.lastIndexOf('@') + 1);
  return `${raw.slice(0, at + 2)}${creds}${hostsOf(raw)[0]}${rest.slice(authority.length)}`;
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const url = (name: string, protocols: string[], hostList = false): string | null => {
    const raw = str(name);
    if (raw === null) return null;
    try {
      const u = new URL(hostList ? firstHostOnly(raw) : raw);
      if (!protocols.includes(u.protocol)) problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
      // every host, checked as the first was (a bad port or character throws), none empty
      if (hostList && !hostsOf(raw).every((h) => new URL(`${u.protocol}//${h}`).hostname !== '')) throw new Error('an empty host');
    } catch {
      problems.push(`${name} is not a valid URL${hostList ? ' (scheme://[user:password@]host[:port][,host[:port]...][?settings])' : ''}`);
    }
    return raw;
  };

  const logLevel = (str('LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LEVELS.join(', ')} (got "${logLevel}")`);

  const channelsSecret = str('SERVICE_CHANNELS_SECRET');
  if (channelsSecret !== null && channelsSecret.length < 32) {
    problems.push('SERVICE_CHANNELS_SECRET must be at least 32 characters (it keys the sealing of channel secrets)');
  }
  const secretsKey = str('SERVICE_SECRETS_KEY');
  if (secretsKey !== null && secretsKey.length < 32) {
    problems.push('SERVICE_SECRETS_KEY must be at least 32 characters');
  }

  const auditSigningKey = str('SERVICE_AUDIT_SIGNING_KEY');
  if (auditSigningKey !== null) {
    try {
      parseSigningKey(auditSigningKey);
    } catch (e) {
      problems.push(`SERVICE_AUDIT_SIGNING_KEY must be an Ed25519 private key (PKCS#8 PEM or a base64url 32-byte seed): ${(e as Error).message}`);
    }
  }

  let auditTrustedKeys = new Map<string, string>();
  const trustedKeys = str('AUDIT_TRUSTED_KEYS');
  if (trustedKeys !== null) {
    try {
      auditTrustedKeys = parsePublicKeys(trustedKeys);
    } catch (e) {
      problems.push(
        `AUDIT_TRUSTED_KEYS must be a JWK Set (as GET /api/audit/keys answers) of Ed25519 keys named by their thumbprints: ${(e as Error).message}`,
      );
    }
  }
  const auditWitnessDir = str('AUDIT_WITNESS_DIR');

  const metricsToken = str('METRICS_TOKEN');
  const streamPrefix = str('EVENTSTORE_STREAM_PREFIX') ?? 'tenant-';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.]*-$/.test(streamPrefix)) {
    problems.push('EVENTSTORE_STREAM_PREFIX must be letters, digits, _ and . ending in - (like tenant-)');
  }
  if (env.DATABASE_OWNER_URL && !env.DATABASE_URL) {
    problems.push('DATABASE_OWNER_URL needs DATABASE_URL (the role the service serves as); the embedded default makes both itself');
  }
  if (metricsToken !== null && (metricsToken.length < 16 || !/^[\x21-\x7e]+$/.test(metricsToken))) {
    problems.push('METRICS_TOKEN must be at least 16 printable characters without spaces');
  }

  const config: Config = {
    port: int('PORT', 3000, 0, 65535),
    host: str('HOST') ?? '127.0.0.1',
    dataDir: path.resolve(str('DATA_DIR') ?? './.data'),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseOwnerUrl: url('DATABASE_OWNER_URL', ['postgres:', 'postgresql:']),
    // A cluster's connection string lists its nodes (gossip seeds): esdb://host1:2113,host2:2113,host3:2113?...
    eventstoreUrl: url('EVENTSTORE_URL', ['esdb:', 'esdb+discover:', 'kurrentdb:', 'kurrent:'], true),
    eventstoreStreamPrefix: streamPrefix,
    channelsSecret,
    secretsKey,
    logLevel,
    channelSecretGraceSeconds: int('CHANNEL_SECRET_GRACE_SECONDS', 24 * 3600, 0, 30 * 24 * 3600),
    webhookAllowlist: (str('WEBHOOK_ALLOWLIST') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    webhookRetryBaseSeconds: int('WEBHOOK_RETRY_BASE_SECONDS', 30, 1, 3600),
    unsendWindowSeconds: int('UNSEND_WINDOW_SECONDS', 900, 0, 7 * 86_400),
    streamHeartbeatMs: int('STREAM_HEARTBEAT_MS', 15_000, 100, 300_000),
    streamStallMs: int('STREAM_STALL_MS', 30_000, 100, 600_000),
    streamMaxPerCaller: int('STREAM_MAX_PER_CALLER', 5, 1, 1000),
    streamPollMs: int('STREAM_POLL_MS', 2_000, 50, 60_000),
    uploadMaxBytes: int('UPLOAD_MAX_BYTES', 20 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    uploadStorageMaxBytes: int('UPLOAD_STORAGE_MAX_BYTES', 5 * 1024 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
    uploadTtlSeconds: int('UPLOAD_TTL_SECONDS', 3600, 1, 30 * 86_400),
    uploadUrlTtlSeconds: int('UPLOAD_URL_TTL_SECONDS', 7 * 86_400, 60, 90 * 86_400),
    bodyLimit: str('BODY_LIMIT') ?? '256kb',
    workers: (str('WORKERS') ?? 'on') !== 'off',
    rowLevelSecurity: (str('ROW_LEVEL_SECURITY') ?? 'on') !== 'off',
    groupCommit: (str('GROUP_COMMIT') ?? 'on') !== 'off',
    preparedStatements: (str('PREPARED_STATEMENTS') ?? 'on') !== 'off',
    httpHeadersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000),
    httpRequestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000),
    httpKeepAliveTimeoutMs: int('HTTP_KEEPALIVE_TIMEOUT_MS', 65_000, 100, 600_000),
    trustProxy: (str('TRUST_PROXY') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    metricsToken,
    exportTtlHours: int('EXPORT_TTL_HOURS', 48, 1, 24 * 365),
    jobsBatch: int('JOBS_BATCH', 20, 1, 1000),
    jobsLeaseMs: int('JOBS_LEASE_MS', 30_000, 500, 3_600_000),
    jobsPollMs: int('JOBS_POLL_MS', 2_000, 50, 600_000),
    automationPollMs: int('AUTOMATION_POLL_MS', 1_000, 50, 600_000),
    automationLeaseMs: int('AUTOMATION_LEASE_MS', 30_000, 500, 3_600_000),
    outboundBatch: int('OUTBOUND_BATCH', 50, 1, 1000),
    outboundLeaseMs: int('OUTBOUND_LEASE_MS', 60_000, 500, 3_600_000),
    outboundIntervalMs: int('OUTBOUND_INTERVAL_MS', 0, 0, 60_000),
    outboundPollMs: int('OUTBOUND_POLL_MS', 2_000, 50, 600_000),
    auditRetentionDays: int('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    smtpRelayUrl: url('SMTP_RELAY_URL', ['smtp:', 'smtps:']),
    mailFrom: str('MAIL_FROM') ?? 'Conversation service <no-reply@localhost>',
    smtpPort: str('SMTP_PORT') === null ? null : int('SMTP_PORT', 0, 0, 65535),
    smtpHost: str('SMTP_HOST') ?? '127.0.0.1',
    smtpMaxBytes: int('SMTP_MAX_BYTES', 25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    smtpMaxClients: int('SMTP_MAX_CLIENTS', 100, 1, 100_000),
    smtpMaxRecipients: int('SMTP_MAX_RECIPIENTS', 100, 1, 100_000),
    smtpMaxMessagesPerConnection: int('SMTP_MAX_MESSAGES_PER_CONNECTION', 100, 1, 1_000_000),
    mailParseTimeoutMs: int('MAIL_PARSE_TIMEOUT_MS', 10_000, 1, 600_000),
    mailParseThreads: str('MAIL_PARSE_THREADS') === null ? null : int('MAIL_PARSE_THREADS', 1, 1, 256),
    mailParseHeapMb: int('MAIL_PARSE_HEAP_MB', 256, 32, 16_384),
    // Room for a DNS that times out once (5 s a try, dns.ts) on the DKIM key and again on the SPF record, and still a verdict.
    mailAuthTimeoutMs: int('MAIL_AUTH_TIMEOUT_MS', 20_000, 1, 600_000),
    smtpTls: str('SMTP_TLS_CERT_FILE') && str('SMTP_TLS_KEY_FILE') ? { certFile: str('SMTP_TLS_CERT_FILE')!, keyFile: str('SMTP_TLS_KEY_FILE')! } : null,
    publicUrl: (url('PUBLIC_URL', ['http:', 'https:']) ?? `http://${str('HOST') ?? '127.0.0.1'}:${str('PORT') ?? '3000'}`).replace(/(?<!\/)\/+$/, ''),
    passwordResetTtlMinutes: int('PASSWORD_RESET_TTL_MINUTES', 30, 1, 24 * 60),
    passwordHashCost: int('PASSWORD_HASH_COST', 15, 10, 20),
    auditChain: (str('AUDIT_CHAIN') ?? 'on') !== 'off',
    auditSigningKey,
    auditCheckpointIntervalSeconds: int('AUDIT_CHECKPOINT_INTERVAL_SECONDS', 3600, 0, 30 * 86_400),
    auditWitnessDir: auditWitnessDir === null ? null : path.resolve(auditWitnessDir),
    auditTrustedKeys,
    // Requests per window, far above what a busy integration sends (docs/api-guide.md: Rate limits).
    rateLimits: {
      windowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
      key: int('RATE_LIMIT_KEY', 10_000, 1, 1_000_000_000),
      workspace: int('RATE_LIMIT_WORKSPACE', 25_000, 1, 1_000_000_000),
      expensive: int('RATE_LIMIT_EXPENSIVE', 600, 1, 1_000_000_000),
      channel: int('RATE_LIMIT_CHANNEL', 6_000, 1, 1_000_000_000),
    },
    emailDomainVerification: (str('EMAIL_DOMAIN_VERIFICATION') ?? 'on') !== 'off',
    dnsServers: dnsServers(str('DNS_SERVERS'), problems),
  };
  const rateLimits = str('RATE_LIMITS');
  if (rateLimits === 'off') config.rateLimits = null;
  else if (rateLimits !== null && rateLimits !== 'on') problems.push(`RATE_LIMITS must be on or off (got "${rateLimits}")`);
  for (const flag of ['WORKERS', 'ROW_LEVEL_SECURITY', 'GROUP_COMMIT', 'PREPARED_STATEMENTS', 'AUDIT_CHAIN', 'EMAIL_DOMAIN_VERIFICATION']) {
    const v = str(flag);
    if (v !== null && v !== 'on' && v !== 'off') problems.push(`${flag} must be on or off (got "${v}")`);
  }
  // Node refuses a headers timeout longer than the request timeout.
  if (config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS (${config.httpHeadersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${config.httpRequestTimeoutMs})`);
  }
  for (const p of config.trustProxy) {
    const [addr, bits, extra] = p.split('/');
    const family = isIP(addr ?? '');
    const okBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!['loopback', 'linklocal', 'uniquelocal'].includes(p) && (family === 0 || !okBits || extra !== undefined)) {
      problems.push(`TRUST_PROXY entries must be IPs, CIDRs, loopback, linklocal or uniquelocal (got "${p}")`);
    }
  }
  // The sender is an address, optionally with a display name: `no-reply@example.com` or `Support <no-reply@example.com>`.
  if (!/^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(config.mailFrom)) {
    problems.push(`MAIL_FROM must be an address, optionally with a name: Support <no-reply@example.com> (got "${config.mailFrom}")`);
  }
  if (!/^\d+(kb|mb|b)?$/i.test(config.bodyLimit)) problems.push(`BODY_LIMIT must look like 256kb or 1mb (got "${config.bodyLimit}")`);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * DNS_SERVERS: `host:port,…` (IPv4 `1.2.3.4` or `1.2.3.4:53`, IPv6 `[::1]:53`); null when unset. Each entry is
 * what node's Resolver.setServers() takes.
 */
function dnsServers(value: string | null, problems: string[]): string[] | null {
  if (value === null) return null;
  const servers = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of servers) {
    const v6 = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(s);
    const v4 = /^([0-9.]+)(?::(\d{1,5}))?$/.exec(s);
    const [host, port] = v6 ? [v6[1]!, v6[2]] : v4 ? [v4[1]!, v4[2]] : [s, undefined];
    if (isIP(host) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65535)))
      problems.push(`DNS_SERVERS must be host:port entries separated by commas, hosts as IP addresses (got "${s}")`);
  }
  return servers.length ? servers : null;
}
