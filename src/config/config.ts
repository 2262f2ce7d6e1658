import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Every setting of the service, parsed once at start from the environment (and the `serve`
 * flags, which override it), then frozen and passed in. Nothing else reads `process.env`.
 */
export interface Config {
  /** Folder for the SQLite file, the generated TLS pair and other local state. */
  readonly dataDir: string;
  /** HTTPS listener port. */
  readonly port: number;
  /** Plain-HTTP listener that answers every request with the invalid-protocol error; 0 disables it. */
  readonly httpPort: number;
  readonly host: string;
  /** PEM files; both unset means a self-signed pair for localhost generated into the data dir. */
  readonly tlsCertFile: string | undefined;
  readonly tlsKeyFile: string | undefined;
  /** Addresses and CIDRs of TLS-terminating proxies whose `X-Forwarded-Proto: https` is believed. */
  readonly trustProxy: readonly string[];
  /** Leaky bucket per credential: places in the bucket. */
  readonly rateLimitBucket: number;
  /** Leaky bucket per credential: requests leaked per second. */
  readonly rateLimitLeakPerSecond: number;
  /** Failed authentications tolerated per client address before it is throttled. */
  readonly authFailureBucket: number;
  /** Failed authentications forgiven per second and client address. */
  readonly authFailureLeakPerSecond: number;
  /** Failed staff sign-ins tolerated per account (e-mail, known or not) before it is throttled. */
  readonly signInFailureBucket: number;
  /** Failed staff sign-ins forgiven per second and account. */
  readonly signInFailureLeakPerSecond: number;
  /** Seconds a staff session may go unused before it ends. */
  readonly sessionIdleSeconds: number;
  /** Seconds a staff session lasts from its sign-in, however busy. */
  readonly sessionLifetimeSeconds: number;
  /** log2 of scrypt's N for new staff password hashes (docs/staff.md, "Passwords"). */
  readonly passwordCost: number;
  /**
   * Create the demo store on an empty data directory and print its token: `true` always,
   * `false` never, `undefined` (not set) only when the output is a terminal, so a token is
   * never written into container logs unasked.
   */
  readonly demo: boolean | undefined;
  /** Open connections per listener; a new one beyond it closes the oldest idle one, or is refused when none is idle. */
  readonly maxConnections: number;
  /** The same per client address (IPv4 address or IPv6 /64) and listener; trusted proxies have no such cap. */
  readonly maxConnectionsPerAddress: number;
  readonly webhookAllowPrivate: boolean;
  /** Run the webhook delivery worker inside `serve` (off when dedicated `pricebook worker` processes deliver). */
  readonly webhookWorker: boolean;
  /** Delays in seconds between webhook delivery attempts. */
  readonly webhookRetryScheduleSeconds: readonly number[];
  /** Webhook requests one delivery worker has in flight at once. */
  readonly webhookConcurrency: number;
  /** Webhook requests one delivery worker has in flight for one store at once (at most `webhookConcurrency`; default half of it). */
  readonly webhookPerStore: number;
  /**
   * Seconds a process owns an import it works on without renewing its lease; when it dies, an
   * import waits this long before another process takes it up again.
   */
  readonly importLeaseSeconds: number;
  /** Imports of one store queued or running at once (uploads under way count); one more is refused with 429. */
  readonly importMaxQueued: number;
  /** MiB of the files of one store's queued and running imports; an upload that would pass it is refused with 429. */
  readonly importMaxQueuedMiB: number;
  /** Days an ended import is kept before the maintenance loop deletes it. */
  readonly importRetentionDays: number;
  /** Imports one `serve` process works at once, each of another store. */
  readonly importConcurrency: number;
  /** Run the maintenance loop (purge of old events and expired idempotency keys) in this process. */
  readonly maintenance: boolean;
  /**
   * Days of price history kept; older entries are cut by the maintenance loop, leaving a
   * signed checkpoint per store. Undefined (the default): kept for ever.
   */
  readonly historyRetentionDays: number | undefined;
  /**
   * The secret that signs the history's retention checkpoints (HMAC-SHA256), and that
   * `pricebook history verify` checks them with. Needed with `historyRetentionDays`; kept away
   * from the database (docs/history.md).
   */
  readonly historyKey: string | undefined;
  /** `postgres://…` selects PostgreSQL; unset means SQLite in the data dir. */
  readonly databaseUrl: string | undefined;
  /** `redis://…` keeps the rate-limit buckets in Redis. */
  readonly redisUrl: string | undefined;
  /** Start of every Redis key this service writes (several services may share one Redis). */
  readonly redisPrefix: string;
  readonly logLevel: string;
  /** Plain-HTTP listener answering `GET /metrics` (Prometheus text format); 0 (the default) disables it. */
  readonly metricsPort: number;
  /** Bind address of the metrics listener; anything but a loopback address needs `metricsToken`. */
  readonly metricsHost: string;
  /** Bearer token the metrics listener requires when set. */
  readonly metricsToken: string | undefined;
}

export class ConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

/** The environment variable behind each setting, in the order the docs list them. */
export const CONFIG_VARIABLES = {
  dataDir: 'PRICEBOOK_DATA_DIR',
  port: 'PRICEBOOK_PORT',
  httpPort: 'PRICEBOOK_HTTP_PORT',
  host: 'PRICEBOOK_HOST',
  tlsCertFile: 'PRICEBOOK_TLS_CERT',
  tlsKeyFile: 'PRICEBOOK_TLS_KEY',
  trustProxy: 'PRICEBOOK_TRUST_PROXY',
  rateLimitBucket: 'PRICEBOOK_RATE_LIMIT_BUCKET',
  rateLimitLeakPerSecond: 'PRICEBOOK_RATE_LIMIT_LEAK',
  authFailureBucket: 'PRICEBOOK_AUTH_FAILURE_BUCKET',
  authFailureLeakPerSecond: 'PRICEBOOK_AUTH_FAILURE_LEAK',
  signInFailureBucket: 'PRICEBOOK_SIGN_IN_FAILURE_BUCKET',
  signInFailureLeakPerSecond: 'PRICEBOOK_SIGN_IN_FAILURE_LEAK',
  sessionIdleSeconds: 'PRICEBOOK_SESSION_IDLE',
  sessionLifetimeSeconds: 'PRICEBOOK_SESSION_LIFETIME',
  passwordCost: 'PRICEBOOK_PASSWORD_COST',
  demo: 'PRICEBOOK_DEMO',
  maxConnections: 'PRICEBOOK_MAX_CONNECTIONS',
  maxConnectionsPerAddress: 'PRICEBOOK_MAX_CONNECTIONS_PER_ADDRESS',
  webhookAllowPrivate: 'PRICEBOOK_WEBHOOK_ALLOW_PRIVATE',
  webhookWorker: 'PRICEBOOK_WEBHOOK_WORKER',
  webhookRetryScheduleSeconds: 'PRICEBOOK_WEBHOOK_RETRY_SCHEDULE',
  webhookConcurrency: 'PRICEBOOK_WEBHOOK_CONCURRENCY',
  webhookPerStore: 'PRICEBOOK_WEBHOOK_PER_STORE',
  importLeaseSeconds: 'PRICEBOOK_IMPORT_LEASE',
  importMaxQueued: 'PRICEBOOK_IMPORT_MAX_QUEUED',
  importMaxQueuedMiB: 'PRICEBOOK_IMPORT_MAX_QUEUED_MIB',
  importRetentionDays: 'PRICEBOOK_IMPORT_RETENTION',
  importConcurrency: 'PRICEBOOK_IMPORT_CONCURRENCY',
  maintenance: 'PRICEBOOK_MAINTENANCE',
  historyRetentionDays: 'PRICEBOOK_HISTORY_RETENTION',
  historyKey: 'PRICEBOOK_HISTORY_KEY',
  databaseUrl: 'DATABASE_URL',
  redisUrl: 'REDIS_URL',
  redisPrefix: 'PRICEBOOK_REDIS_PREFIX',
  logLevel: 'PRICEBOOK_LOG_LEVEL',
  metricsPort: 'PRICEBOOK_METRICS_PORT',
  metricsHost: 'PRICEBOOK_METRICS_HOST',
  metricsToken: 'PRICEBOOK_METRICS_TOKEN',
} as const satisfies Record<keyof Config, string>;

/** Hourly for 24 hours. */
/** Well below the usual open-file limits (ulimit -n) that the database and Redis share with clients. */
const DEFAULT_MAX_CONNECTIONS = 4096;
/**
 * A sixteenth of the listener: it takes 16 addresses holding requests in flight to fill it, and
 * one client rarely needs more than a few dozen (the typed client keeps 8, a browser 6).
 */
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;
const DEFAULT_RETRY_SCHEDULE = Array.from({ length: 24 }, () => 3600);

/**
 * Parses the settings. `overrides` are raw strings keyed like the environment (the CLI passes
 * its flags this way), so flags and variables share one set of rules and error messages.
 */
export function parseConfig(env: Env, overrides: Env = {}): Config {
  const raw = (key: keyof Config): string | undefined => {
    const name = CONFIG_VARIABLES[key];
    const value = overrides[name] ?? env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const name = (key: keyof Config) => CONFIG_VARIABLES[key];

  const webhookConcurrency = parseBounded(name('webhookConcurrency'), raw('webhookConcurrency'), 8, 1000);
  const config: Config = {
    dataDir: path.resolve(raw('dataDir') ?? './data'),
    port: parsePort(name('port'), raw('port'), 8443, false),
    httpPort: parsePort(name('httpPort'), raw('httpPort'), 8080, true),
    host: raw('host') ?? '127.0.0.1',
    tlsCertFile: raw('tlsCertFile'),
    tlsKeyFile: raw('tlsKeyFile'),
    trustProxy: parseTrustProxy(name('trustProxy'), raw('trustProxy')),
    rateLimitBucket: parsePositive(name('rateLimitBucket'), raw('rateLimitBucket'), 40, true),
    rateLimitLeakPerSecond: parsePositive(name('rateLimitLeakPerSecond'), raw('rateLimitLeakPerSecond'), 2, false),
    authFailureBucket: parsePositive(name('authFailureBucket'), raw('authFailureBucket'), 100, true),
    authFailureLeakPerSecond: parsePositive(name('authFailureLeakPerSecond'), raw('authFailureLeakPerSecond'), 1, false),
    // Ten wrong passwords, then about one more a minute: a slow online guess, a quick typo.
    signInFailureBucket: parsePositive(name('signInFailureBucket'), raw('signInFailureBucket'), 10, true),
    signInFailureLeakPerSecond: parsePositive(name('signInFailureLeakPerSecond'), raw('signInFailureLeakPerSecond'), 0.017, false),
    // 30 minutes idle, 12 hours in all (a working day), at most 30 days.
    sessionIdleSeconds: parseBounded(name('sessionIdleSeconds'), raw('sessionIdleSeconds'), 1800, 2_592_000),
    sessionLifetimeSeconds: parseBounded(name('sessionLifetimeSeconds'), raw('sessionLifetimeSeconds'), 43_200, 2_592_000),
    // scrypt's N = 2^15 (32 MiB, OWASP's figure); from 2^10 (a test suite's) to 2^20.
    passwordCost: parseRange(name('passwordCost'), raw('passwordCost'), 15, 10, 20),
    demo: parseSwitch(name('demo'), raw('demo'), undefined),
    maxConnections: parsePositive(name('maxConnections'), raw('maxConnections'), DEFAULT_MAX_CONNECTIONS, true),
    maxConnectionsPerAddress: parsePositive(name('maxConnectionsPerAddress'), raw('maxConnectionsPerAddress'), DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, true),
    webhookAllowPrivate: parseSwitch(name('webhookAllowPrivate'), raw('webhookAllowPrivate'), false),
    webhookWorker: parseSwitch(name('webhookWorker'), raw('webhookWorker'), true),
    webhookRetryScheduleSeconds: parseSchedule(name('webhookRetryScheduleSeconds'), raw('webhookRetryScheduleSeconds')),
    webhookConcurrency,
    // Default: half the slots, so one store's slow receivers leave the other half to the rest.
    webhookPerStore: parseBounded(name('webhookPerStore'), raw('webhookPerStore'), Math.ceil(webhookConcurrency / 2), 1000),
    importLeaseSeconds: parseBounded(name('importLeaseSeconds'), raw('importLeaseSeconds'), 300, 86_400),
    importMaxQueued: parseBounded(name('importMaxQueued'), raw('importMaxQueued'), 4, 1000),
    // At least one file of the largest size (50 MiB) must fit, or such a file could never be queued.
    importMaxQueuedMiB: parseRange(name('importMaxQueuedMiB'), raw('importMaxQueuedMiB'), 200, 50, 1_048_576),
    importRetentionDays: parseBounded(name('importRetentionDays'), raw('importRetentionDays'), 30, 3650),
    importConcurrency: parseBounded(name('importConcurrency'), raw('importConcurrency'), 4, 64),
    maintenance: parseSwitch(name('maintenance'), raw('maintenance'), true),
    historyRetentionDays: raw('historyRetentionDays') === undefined ? undefined : parseBounded(name('historyRetentionDays'), raw('historyRetentionDays'), 0, 36_500),
    historyKey: parseHistoryKey(name('historyKey'), raw('historyKey')),
    databaseUrl: parseUrl(name('databaseUrl'), raw('databaseUrl'), ['postgres:', 'postgresql:']),
    redisUrl: parseUrl(name('redisUrl'), raw('redisUrl'), ['redis:', 'rediss:']),
    redisPrefix: parseRedisPrefix(name('redisPrefix'), raw('redisPrefix')),
    logLevel: parseLogLevel(name('logLevel'), raw('logLevel')),
    metricsPort: parsePort(name('metricsPort'), raw('metricsPort'), 0, true),
    metricsHost: parseAddress(name('metricsHost'), raw('metricsHost'), '127.0.0.1'),
    metricsToken: parseMetricsToken(name('metricsToken'), raw('metricsToken')),
  };
  if ((config.tlsCertFile === undefined) !== (config.tlsKeyFile === undefined)) {
    throw new ConfigError(`${name('tlsCertFile')} and ${name('tlsKeyFile')} must be set together`);
  }
  if (config.webhookPerStore > config.webhookConcurrency) {
    throw new ConfigError(`${name('webhookPerStore')} (${config.webhookPerStore}) must not exceed ${name('webhookConcurrency')} (${config.webhookConcurrency})`);
  }
  // A cut leaves a checkpoint that only a signature makes worth trusting.
  if (config.historyRetentionDays !== undefined && config.historyKey === undefined) {
    throw new ConfigError(`${name('historyRetentionDays')} needs ${name('historyKey')}: the checkpoint a retention cut leaves is signed with it`);
  }
  // Metrics name routes, volumes and failure rates: never readable by anyone who can reach the host.
  if (config.metricsPort !== 0 && config.metricsToken === undefined && !isLoopback(config.metricsHost)) {
    throw new ConfigError(`${name('metricsHost')} ${config.metricsHost} is not a loopback address: set ${name('metricsToken')} too`);
  }
  return Object.freeze(config);
}

function isLoopback(address: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1';
}

/** An IP address (the metrics listener binds to one address, never a host name). */
function parseAddress(variable: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  if (isIP(value) === 0) throw new ConfigError(`${variable} must be an IP address, got '${value}'`);
  return value;
}

/** 16 to 256 characters of the token68 alphabet (RFC 7235), so it fits a Bearer header as is. */
function parseMetricsToken(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9\-._~+/]{16,256}=*$/.test(value)) {
    throw new ConfigError(`${variable} must be 16 to 256 characters of letters, digits and - . _ ~ + /`);
  }
  return value;
}

/** A whole number from 1 to `max`. */
function parseBounded(variable: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1 && number <= max)) throw new ConfigError(`${variable} must be a whole number from 1 to ${max}, got '${value}'`);
  return number;
}

/** A whole number from `min` to `max`. */
function parseRange(variable: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const number = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) throw new ConfigError(`${variable} must be a whole number from ${min} to ${max}, got '${value}'`);
  return number;
}

function parsePort(variable: string, value: string | undefined, fallback: number, zeroAllowed: boolean): number {
  if (value === undefined) return fallback;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port <= 65535 && (port >= 1 || (zeroAllowed && port === 0)))) {
    throw new ConfigError(`${variable} must be a port number${zeroAllowed ? ' (0 disables)' : ''}, got '${value}'`);
  }
  return port;
}

/** Whole numbers for bucket sizes; leak rates may be fractional, to a thousandth. */
function parsePositive(variable: string, value: string | undefined, fallback: number, whole: boolean): number {
  if (value === undefined) return fallback;
  const pattern = whole ? /^\d{1,9}$/ : /^\d{1,9}(\.\d{1,3})?$/;
  const number = pattern.test(value) ? Number(value) : NaN;
  if (!(number > 0)) {
    throw new ConfigError(`${variable} must be a positive ${whole ? 'whole number' : 'number (at most 3 decimals)'}, got '${value}'`);
  }
  return number;
}

function parseSwitch<F extends boolean | undefined>(variable: string, value: string | undefined, fallback: F): boolean | F {
  if (value === undefined) return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new ConfigError(`${variable} must be 1 or 0, got '${value}'`);
}

function parseSchedule(variable: string, value: string | undefined): readonly number[] {
  if (value === undefined) return DEFAULT_RETRY_SCHEDULE;
  const delays = value.split(',').map((part) => part.trim());
  if (delays.length > 100 || delays.some((delay) => !/^\d{1,7}(\.\d{1,3})?$/.test(delay))) {
    throw new ConfigError(`${variable} must be comma-separated delays in seconds (at most 100), got '${value}'`);
  }
  return delays.map(Number);
}

function parseUrl(variable: string, value: string | undefined, protocols: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${variable} is not a URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${variable} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return value;
}

function parseTrustProxy(variable: string, value: string | undefined): readonly string[] {
  if (value === undefined) return [];
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 4 ? 32 : 128;
    const bitsValid = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsValid || extra !== undefined) {
      throw new ConfigError(`${variable} must list IP addresses or CIDRs, got '${entry}'`);
    }
  }
  return entries;
}

/** 32 to 256 printable ASCII characters (`openssl rand -hex 32` makes one): long enough that it cannot be guessed. */
function parseHistoryKey(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[!-~]{32,256}$/.test(value)) throw new ConfigError(`${variable} must be 32 to 256 printable characters without spaces (openssl rand -hex 32 makes one)`);
  return value;
}

/** Printable ASCII without spaces or braces (braces would change the keys' Redis Cluster hash tags). */
function parseRedisPrefix(variable: string, value: string | undefined): string {
  if (value === undefined) return 'pricebook:';
  if (!/^[!-z|~]{1,100}$/.test(value)) throw new ConfigError(`${variable} must be 1 to 100 printable characters without spaces or braces, got '${value}'`);
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseLogLevel(variable: string, value: string | undefined): string {
  if (value === undefined) return 'info';
  if (!LOG_LEVELS.includes(value)) throw new ConfigError(`${variable} must be one of ${LOG_LEVELS.join(', ')}`);
  return value;
}
