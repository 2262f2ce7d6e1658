import path from 'node:path';
import {
  address,
  addressesAndCidrs,
  bearerToken,
  delays,
  onOff,
  oneOf,
  port,
  positive,
  redisPrefix,
  secretKey,
  type SettingParser,
  text,
  url,
  wholeNumber,
} from './setting-parsers.js';

/**
 * The defaults of the import settings, by name, for the code that works without a config
 * (the import service built in a test, the upload route's description): read from here, they
 * cannot drift from the table below.
 */
export const IMPORT_DEFAULTS = { leaseSeconds: 300, maxQueued: 4, maxQueuedMiB: 200, retentionDays: 30 } as const;

/**
 * One setting, written once: the config's field (its key in `SETTINGS`), the environment
 * variable and the `serve` flag, the default, the rules of a value, the README's row and the
 * flag's help all come from it.
 */
export interface Setting<T> {
  /** The environment variable; the `serve` flag is its name without `PRICEBOOK_`, in kebab case (`flagOf`). */
  readonly env: string;
  /**
   * The value when the variable is unset or empty: as it is, or computed when the config is
   * parsed from the settings the table lists before this one.
   */
  readonly default: T | ((before: Readonly<Record<string, unknown>>) => T);
  /** A value as set, checked: a `ConfigError` naming the variable when the rules refuse it. */
  readonly parse: SettingParser<T>;
  /** The default as the docs say it (markdown), where the value does not say it itself. */
  readonly shownDefault?: string;
  /** What it does, for the README's table of settings (markdown, links relative to the README). */
  readonly doc: string;
  /** What it does, for the flag's line of `--help` (plain text; the default is added). */
  readonly help: string;
}

/** Checks one setting and keeps its value's type. */
function setting<T>(definition: Setting<T>): Setting<T> {
  return definition;
}

/** Well below the usual open-file limits (ulimit -n) that the database and Redis share with clients. */
const MAX_CONNECTIONS = 4096;
/**
 * A sixteenth of the listener: it takes 16 addresses holding requests in flight to fill it, and
 * one client rarely needs more than a few dozen (the typed client keeps 8, a browser 6).
 */
const MAX_CONNECTIONS_PER_ADDRESS = 256;
/** Hourly for 24 hours. */
const RETRY_SCHEDULE: readonly number[] = Array.from({ length: 24 }, () => 3600);
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Every setting of the service, in the order the README's table and `serve --help` list them
 * (and the config is parsed in).
 */
export const SETTINGS = {
  /** Folder for the SQLite file, the generated TLS pair and other local state. */
  dataDir: setting({
    env: 'PRICEBOOK_DATA_DIR',
    default: () => path.resolve('./data'),
    parse: (value) => path.resolve(value),
    shownDefault: '`./data`',
    doc: 'SQLite file, generated TLS certificate, other local state',
    help: 'data directory (SQLite file, generated TLS pair)',
  }),
  port: setting({ env: 'PRICEBOOK_PORT', default: 8443, parse: port({ zeroDisables: false }), doc: 'HTTPS listener', help: 'HTTPS port' }),
  /** Plain-HTTP listener that answers every request with the invalid-protocol error; 0 disables it. */
  httpPort: setting({
    env: 'PRICEBOOK_HTTP_PORT',
    default: 8080,
    parse: port({ zeroDisables: true }),
    doc: 'plain-HTTP listener that answers every request with the invalid-protocol error (code 2); `0` disables it. Behind a trusted proxy it serves the proxied requests',
    help: 'plain-HTTP port that refuses every request; 0 disables',
  }),
  host: setting({ env: 'PRICEBOOK_HOST', default: '127.0.0.1', parse: text, doc: 'bind address', help: 'bind address' }),
  /** PEM files; both unset means a self-signed pair for localhost generated into the data dir. */
  tlsCertFile: setting<string | undefined>({
    env: 'PRICEBOOK_TLS_CERT',
    default: undefined,
    parse: text,
    shownDefault: 'generated self-signed pair for `localhost` in the data dir',
    doc: 'PEM certificate file (set both it and `PRICEBOOK_TLS_KEY`, or neither)',
    help: 'PEM certificate file',
  }),
  tlsKeyFile: setting<string | undefined>({
    env: 'PRICEBOOK_TLS_KEY',
    default: undefined,
    parse: text,
    shownDefault: 'generated with the certificate',
    doc: 'PEM key file of the certificate (set both or neither)',
    help: 'PEM key file',
  }),
  /** Addresses and CIDRs of TLS-terminating proxies whose `X-Forwarded-Proto: https` is believed. */
  trustProxy: setting({
    env: 'PRICEBOOK_TRUST_PROXY',
    default: [],
    parse: addressesAndCidrs,
    shownDefault: 'unset',
    doc: 'comma-separated addresses/CIDRs of TLS-terminating proxies whose `X-Forwarded-Proto: https` is believed (on either listener)',
    help: 'comma-separated addresses/CIDRs of TLS-terminating proxies',
  }),
  /** Leaky bucket per credential: places in the bucket. */
  rateLimitBucket: setting({
    env: 'PRICEBOOK_RATE_LIMIT_BUCKET',
    default: 40,
    parse: positive({ whole: true }),
    doc: 'leaky-bucket size per credential',
    help: 'leaky-bucket size per credential',
  }),
  /** Leaky bucket per credential: requests leaked per second. */
  rateLimitLeakPerSecond: setting({
    env: 'PRICEBOOK_RATE_LIMIT_LEAK',
    default: 2,
    parse: positive({ whole: false }),
    doc: 'requests leaked per second (up to 3 decimals)',
    help: 'requests leaked per second',
  }),
  /** Failed authentications tolerated per client address before it is throttled. */
  authFailureBucket: setting({
    env: 'PRICEBOOK_AUTH_FAILURE_BUCKET',
    default: 100,
    parse: positive({ whole: true }),
    doc: 'failed authentications tolerated per client address before it gets 429',
    help: 'failed authentications tolerated per client address',
  }),
  authFailureLeakPerSecond: setting({
    env: 'PRICEBOOK_AUTH_FAILURE_LEAK',
    default: 1,
    parse: positive({ whole: false }),
    doc: 'failed authentications forgiven per second',
    help: 'failed authentications forgiven per second',
  }),
  // Ten wrong passwords, then about one more a minute: a slow online guess, a quick typo.
  /** Failed staff sign-ins tolerated per account (e-mail, known or not), and per device cookie, before it is throttled. */
  signInFailureBucket: setting({
    env: 'PRICEBOOK_SIGN_IN_FAILURE_BUCKET',
    default: 10,
    parse: positive({ whole: true }),
    doc: 'failed staff sign-ins tolerated per account (e-mail, known or not), and per device cookie, before sign-in gets 429 ([docs/staff.md](docs/staff.md#throttling))',
    help: 'failed staff sign-ins tolerated per account (and per device cookie) before it gets 429',
  }),
  signInFailureLeakPerSecond: setting({
    env: 'PRICEBOOK_SIGN_IN_FAILURE_LEAK',
    default: 0.017,
    parse: positive({ whole: false }),
    doc: 'failed staff sign-ins forgiven per second and account (about one a minute)',
    help: 'failed staff sign-ins forgiven per second and account (or device cookie), about one a minute',
  }),
  // 30 minutes idle, 12 hours in all (a working day), at most 30 days.
  sessionIdleSeconds: setting({
    env: 'PRICEBOOK_SESSION_IDLE',
    default: 1800,
    parse: wholeNumber(1, 2_592_000),
    doc: 'seconds a staff session may go unused before it ends (1 to 2 592 000)',
    help: 'seconds a staff session may go unused before it ends',
  }),
  sessionLifetimeSeconds: setting({
    env: 'PRICEBOOK_SESSION_LIFETIME',
    default: 43_200,
    parse: wholeNumber(1, 2_592_000),
    doc: "seconds a staff session lasts from its sign-in, however busy; the cookie's `Max-Age` (1 to 2 592 000)",
    help: 'seconds a staff session lasts from its sign-in, however busy',
  }),
  // scrypt's N = 2^15 (32 MiB, OWASP's figure); from 2^10 (a test suite's) to 2^20.
  passwordCost: setting({
    env: 'PRICEBOOK_PASSWORD_COST',
    default: 15,
    parse: wholeNumber(10, 20),
    doc: "log2 of scrypt's N for new staff password hashes (10 to 20; 15 is 32 MiB and about 100 ms of a core a hash); a hash keeps the cost it was made with ([docs/staff.md](docs/staff.md))",
    help: 'log2 of scrypt N for new staff password hashes, 10 to 20 (15: 32 MiB, ~100 ms a hash)',
  }),
  /**
   * Create the demo store on an empty data directory and print its token: `true` always,
   * `false` never, `undefined` (not set) only when the output is a terminal, so a token is
   * never written into container logs unasked.
   */
  demo: setting<boolean | undefined>({
    env: 'PRICEBOOK_DEMO',
    default: undefined,
    parse: onOff,
    shownDefault: 'only when stdout is a terminal',
    doc: '`1`: create the demo store on an empty data dir and print its token, even into a log; `0`: never',
    help: '1 or 0: create the demo store on an empty data dir and print its token',
  }),
  maxConnections: setting({
    env: 'PRICEBOOK_MAX_CONNECTIONS',
    default: MAX_CONNECTIONS,
    parse: positive({ whole: true }),
    doc: "open connections per listener (HTTPS, plain HTTP); a new one beyond it closes the listener's oldest idle connection, or is closed at once when none is idle; keep it below the process's open-file limit (`ulimit -n`) minus the database pool",
    help: 'open connections per listener; beyond it a new one closes the oldest idle one, or is refused',
  }),
  maxConnectionsPerAddress: setting({
    env: 'PRICEBOOK_MAX_CONNECTIONS_PER_ADDRESS',
    default: MAX_CONNECTIONS_PER_ADDRESS,
    parse: positive({ whole: true }),
    doc: "the same per client address (IPv4 address or IPv6 /64) and listener: a new one beyond it closes that address's oldest idle connection, or is closed at once. Addresses in `PRICEBOOK_TRUST_PROXY` have no such cap. 256 is a sixteenth of the default listener cap, far above what one client needs (the typed client keeps 8 connections, a browser 6); raise it behind a layer-4 proxy that is not a trusted proxy, where every client arrives from the proxy's address",
    help: 'the same per client address (trusted proxies exempt)',
  }),
  webhookAllowPrivate: setting({
    env: 'PRICEBOOK_WEBHOOK_ALLOW_PRIVATE',
    default: false,
    parse: onOff,
    doc: '`1`: webhook URLs may be `http://` and private/loopback (development and tests only)',
    help: '1: webhook URLs may be http:// and private (development only)',
  }),
  /** Run the webhook delivery worker inside `serve` (off when dedicated `pricebook worker` processes deliver). */
  webhookWorker: setting({
    env: 'PRICEBOOK_WEBHOOK_WORKER',
    default: true,
    parse: onOff,
    doc: '`0`: `serve` does not deliver webhooks (dedicated `pricebook worker` processes do)',
    help: '1 or 0: deliver webhooks from this serve process',
  }),
  /** Delays in seconds between webhook delivery attempts. */
  webhookRetryScheduleSeconds: setting({
    env: 'PRICEBOOK_WEBHOOK_RETRY_SCHEDULE',
    default: RETRY_SCHEDULE,
    parse: delays,
    shownDefault: 'hourly for 24 h',
    doc: 'comma-separated delays in seconds between delivery attempts',
    help: 'comma-separated delays in seconds between webhook attempts',
  }),
  webhookConcurrency: setting({
    env: 'PRICEBOOK_WEBHOOK_CONCURRENCY',
    default: 8,
    parse: wholeNumber(1, 1000),
    doc: 'webhook requests one delivery worker has in flight at once (1–1000)',
    help: 'webhook requests in flight per delivery worker',
  }),
  /** At most `webhookConcurrency`; the default, half of it, leaves the other half to the other stores when one store's receivers are slow. */
  webhookPerStore: setting({
    env: 'PRICEBOOK_WEBHOOK_PER_STORE',
    default: (before) => Math.ceil(Number(before.webhookConcurrency) / 2),
    parse: wholeNumber(1, 1000),
    shownDefault: 'half of `PRICEBOOK_WEBHOOK_CONCURRENCY`',
    doc: "webhook requests one delivery worker has in flight for one store's webhooks at once (1 to the concurrency), so one store's slow receivers leave the other slots to the other stores",
    help: 'webhook requests in flight per store and delivery worker',
  }),
  /**
   * Seconds a process owns an import it works on without renewing its lease; when it dies, an
   * import waits this long before another process takes it up again.
   */
  importLeaseSeconds: setting({
    env: 'PRICEBOOK_IMPORT_LEASE',
    default: IMPORT_DEFAULTS.leaseSeconds,
    parse: wholeNumber(1, 86_400),
    doc: 'seconds a `serve` process owns a CSV import it works on without renewing its claim; an import whose process died is taken up again by another (or the restarted one) after this long ([docs/imports.md](docs/imports.md))',
    help: 'seconds an import is owned by the process working on it before another may take it up (after a crash)',
  }),
  importMaxQueued: setting({
    env: 'PRICEBOOK_IMPORT_MAX_QUEUED',
    default: IMPORT_DEFAULTS.maxQueued,
    parse: wholeNumber(1, 1000),
    doc: 'CSV imports one store may have queued or running at once (uploads under way count); another upload gets 429, code 16, with `Retry-After` ([limits](docs/imports.md#limits))',
    help: 'imports of one store queued or running at once before another upload gets 429',
  }),
  // At least one file of the largest size (50 MiB) must fit, or such a file could never be queued.
  importMaxQueuedMiB: setting({
    env: 'PRICEBOOK_IMPORT_MAX_QUEUED_MIB',
    default: IMPORT_DEFAULTS.maxQueuedMiB,
    parse: wholeNumber(50, 1_048_576),
    doc: "MiB of the files of one store's queued and running imports (50 or more, so a 50 MiB file always fits an empty queue); an upload that would pass it gets 429, code 16",
    help: "MiB of the files of one store's queued and running imports before another upload gets 429 (50 or more)",
  }),
  importRetentionDays: setting({
    env: 'PRICEBOOK_IMPORT_RETENTION',
    default: IMPORT_DEFAULTS.retentionDays,
    parse: wholeNumber(1, 3650),
    doc: 'days an ended import is kept (then the maintenance loop deletes it)',
    help: 'days an ended import is kept before the maintenance loop deletes it',
  }),
  importConcurrency: setting({
    env: 'PRICEBOOK_IMPORT_CONCURRENCY',
    default: 4,
    parse: wholeNumber(1, 64),
    doc: 'imports one `serve` process works at once, each of another store (they take turns, batch by batch)',
    help: 'imports one serve process works at once, each of another store',
  }),
  /** Run the maintenance loop (purge of old events and expired idempotency keys) in this process. */
  maintenance: setting({
    env: 'PRICEBOOK_MAINTENANCE',
    default: true,
    parse: onOff,
    doc: '`0`: this process does not purge old events, expired idempotency keys, ended imports past their retention and what dead processes left of imports (another `serve` or `worker` must)',
    help: '1 or 0: purge old events, expired idempotency keys, ended imports and their leftovers from this process',
  }),
  /** Days of price history kept; older entries are cut by the maintenance loop, leaving a signed checkpoint per store. */
  historyRetentionDays: setting<number | undefined>({
    env: 'PRICEBOOK_HISTORY_RETENTION',
    default: undefined,
    parse: wholeNumber(1, 36_500),
    shownDefault: 'unset (kept for ever)',
    doc: 'days of price history kept (1–36500); the maintenance loop cuts older entries in batches, leaving per store a checkpoint signed with `PRICEBOOK_HISTORY_KEY` ([docs/history.md](docs/history.md#retention-and-checkpoints)). Needs `PRICEBOOK_HISTORY_KEY`',
    help: 'days of price history kept; older entries are cut, leaving a signed checkpoint per store',
  }),
  /**
   * The secret that signs the history's retention checkpoints (HMAC-SHA256), and that
   * `pricebook history verify` checks them with; kept away from the database (docs/history.md).
   */
  historyKey: setting<string | undefined>({
    env: 'PRICEBOOK_HISTORY_KEY',
    default: undefined,
    parse: secretKey,
    doc: 'the secret (32–256 printable characters, no spaces; `openssl rand -hex 32`) that signs retention checkpoints and that `pricebook history verify` checks them with. Keep it out of the database and its backups, and back it up on its own: without it a cut history cannot be verified',
    help: "secret (32-256 characters) signing the history's retention checkpoints; needed with --history-retention and to verify a cut history (prefer the environment: flags show in ps)",
  }),
  databaseUrl: setting<string | undefined>({
    env: 'DATABASE_URL',
    default: undefined,
    parse: url(['postgres:', 'postgresql:']),
    doc: '`postgres://…` selects PostgreSQL instead of SQLite',
    help: 'postgres://… selects PostgreSQL instead of SQLite',
  }),
  redisUrl: setting<string | undefined>({
    env: 'REDIS_URL',
    default: undefined,
    parse: url(['redis:', 'rediss:']),
    doc: '`redis://…` keeps rate-limit buckets in Redis, shared by all instances; while it does not answer, each instance limits with its own buckets (see below)',
    help: 'redis://… keeps rate-limit buckets in Redis',
  }),
  /** Start of every Redis key this service writes (several services may share one Redis). */
  redisPrefix: setting({
    env: 'PRICEBOOK_REDIS_PREFIX',
    default: 'pricebook:',
    parse: redisPrefix,
    doc: 'start of every Redis key written (no spaces or braces), so deployments can share one Redis',
    help: 'start of every Redis key written',
  }),
  logLevel: setting({
    env: 'PRICEBOOK_LOG_LEVEL',
    default: 'info',
    parse: oneOf(LOG_LEVELS),
    doc: `${orList(LOG_LEVELS.map((level) => `\`${level}\``))}. The log goes to stdout: readable lines when it is a terminal, JSON (one object a line) otherwise ([Quick start](#quick-start)), written through a buffer that the process empties before it exits (at most 32 MiB held while stdout is not read; past it, lines are dropped)`,
    help: orList(LOG_LEVELS),
  }),
  /** Plain-HTTP listener answering `GET /metrics` (Prometheus text format); 0 disables it. */
  metricsPort: setting({
    env: 'PRICEBOOK_METRICS_PORT',
    default: 0,
    parse: port({ zeroDisables: true }),
    shownDefault: '`0` (off)',
    doc: 'plain-HTTP listener of its own answering `GET /metrics` in the Prometheus text format (`serve` and `worker`); see [docs/deployment.md](docs/deployment.md#metrics)',
    help: 'plain-HTTP port serving GET /metrics (Prometheus)',
  }),
  /** Bind address of the metrics listener; anything but a loopback address needs `metricsToken`. */
  metricsHost: setting({
    env: 'PRICEBOOK_METRICS_HOST',
    default: '127.0.0.1',
    parse: address,
    doc: 'bind address (an IP) of the metrics listener; any address other than loopback needs `PRICEBOOK_METRICS_TOKEN`',
    help: 'bind address of the metrics listener (any but loopback needs a metrics token)',
  }),
  metricsToken: setting<string | undefined>({
    env: 'PRICEBOOK_METRICS_TOKEN',
    default: undefined,
    parse: bearerToken,
    doc: 'when set, the metrics listener answers only `Authorization: Bearer <token>` (16–256 characters of letters, digits and `-._~+/`)',
    help: 'Bearer token the metrics listener requires (prefer the environment: flags show in ps)',
  }),
};

/** `a, b or c`. */
function orList(items: readonly string[]): string {
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

/** `PRICEBOOK_RATE_LIMIT_BUCKET` → `--rate-limit-bucket`; `DATABASE_URL` → `--database-url`. */
export function flagOf(variable: string): string {
  return `--${variable
    .replace(/^PRICEBOOK_/, '')
    .toLowerCase()
    .replace(/_/g, '-')}`;
}

/** A setting's default as the docs say it (markdown): `8443`, `0` for off, or its own words. */
export function shownDefault(setting: Setting<unknown>): string {
  if (setting.shownDefault !== undefined) return setting.shownDefault;
  const value = setting.default;
  if (value === undefined) return 'unset';
  if (typeof value === 'boolean') return value ? '`1`' : '`0`';
  return `\`${String(value)}\``;
}
