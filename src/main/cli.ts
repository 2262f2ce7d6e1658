#!/usr/bin/env node
import fs from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { Services } from '../app/services.js';
import { CONFIG_VARIABLES, ConfigError, type Config, parseConfig } from '../config/config.js';
import { isRoundingMode, ROUNDING_MODES, type RoundingMode } from '../modules/currency/rounding.js';
import { DEFAULT_SCOPES, isScope, SCOPES, type Scope } from '../modules/stores/scopes.js';
import { isStaffRole, STAFF_ROLES, type StaffRole } from '../modules/staff/roles.js';
import { escapeControlCharacters } from '../text/control-characters.js';
import { registerPricesCommands } from './prices-commands.js';
import { DetailedError } from './prices/remote-client.js';
import { stopOnSignals } from './stop-on-signals.js';
import { UsageError } from './usage-error.js';

/** `PRICEBOOK_RATE_LIMIT_BUCKET` → `--rate-limit-bucket`; `DATABASE_URL` → `--database-url`. */
function flagOf(variable: string): string {
  return `--${variable.replace(/^PRICEBOOK_/, '').toLowerCase().replace(/_/g, '-')}`;
}

/** Where commander keeps a flag's value: `--rate-limit-bucket` → `rateLimitBucket`. */
function attributeOf(variable: string): string {
  return flagOf(variable)
    .slice(2)
    .replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

const FLAG_HELP: Record<keyof Config, string> = {
  dataDir: 'data directory (SQLite file, generated TLS pair); default ./data',
  port: 'HTTPS port; default 8443',
  httpPort: 'plain-HTTP port that refuses every request; 0 disables; default 8080',
  host: 'bind address; default 127.0.0.1',
  tlsCertFile: 'PEM certificate file (default: generated self-signed for localhost)',
  tlsKeyFile: 'PEM key file',
  trustProxy: 'comma-separated addresses/CIDRs of TLS-terminating proxies',
  rateLimitBucket: 'leaky-bucket size per credential; default 40',
  rateLimitLeakPerSecond: 'requests leaked per second; default 2',
  authFailureBucket: 'failed authentications tolerated per client address; default 100',
  authFailureLeakPerSecond: 'failed authentications forgiven per second; default 1',
  signInFailureBucket: 'failed staff sign-ins tolerated per account before it gets 429; default 10',
  signInFailureLeakPerSecond: 'failed staff sign-ins forgiven per second and account; default 0.017 (about one a minute)',
  sessionIdleSeconds: 'seconds a staff session may go unused before it ends; default 1800',
  sessionLifetimeSeconds: 'seconds a staff session lasts from its sign-in; default 43200 (12 h)',
  passwordCost: 'log2 of scrypt N for new staff password hashes, 10 to 20; default 15 (32 MiB, ~100 ms a hash)',
  demo: '1 or 0: create the demo store on an empty data dir and print its token; default: only when stdout is a terminal',
  maxConnections: 'open connections per listener; beyond it a new one closes the oldest idle one, or is refused; default 4096',
  maxConnectionsPerAddress: 'the same per client address (trusted proxies exempt); default 256',
  webhookAllowPrivate: '1: webhook URLs may be http:// and private (development only); default 0',
  webhookWorker: '1 or 0: deliver webhooks from this serve process; default 1',
  webhookRetryScheduleSeconds: 'comma-separated delays in seconds between webhook attempts; default hourly for 24 h',
  webhookConcurrency: 'webhook requests in flight per delivery worker; default 8',
  webhookPerStore: 'webhook requests in flight per store and delivery worker; default half of the concurrency',
  importLeaseSeconds: 'seconds an import is owned by the process working on it before another may take it up (after a crash); default 300',
  importMaxQueued: 'imports of one store queued or running at once before another upload gets 429; default 4',
  importMaxQueuedMiB: 'MiB of the files of one store\'s queued and running imports before another upload gets 429 (50 or more); default 200',
  importRetentionDays: 'days an ended import is kept before the maintenance loop deletes it; default 30',
  importConcurrency: 'imports one serve process works at once, each of another store; default 4',
  maintenance: '1 or 0: purge old events, expired idempotency keys, ended imports and their leftovers from this process; default 1',
  historyRetentionDays: 'days of price history kept; older entries are cut, leaving a signed checkpoint per store; default: kept for ever',
  historyKey: 'secret (32-256 characters) signing the history\'s retention checkpoints; needed with --history-retention and to verify a cut history (prefer the environment: flags show in ps)',
  databaseUrl: 'postgres://… selects PostgreSQL instead of SQLite',
  redisUrl: 'redis://… keeps rate-limit buckets in Redis',
  redisPrefix: 'start of every Redis key written; default pricebook:',
  logLevel: 'fatal, error, warn, info, debug, trace or silent; default info',
  metricsPort: 'plain-HTTP port serving GET /metrics (Prometheus); default 0 (off)',
  metricsHost: 'bind address of the metrics listener; default 127.0.0.1 (any other needs a metrics token)',
  metricsToken: 'Bearer token the metrics listener requires (prefer the environment: flags show in ps)',
};

/** The config from the environment with a command's flags on top. */
function configFrom(options: Record<string, string | undefined>): Config {
  const overrides: Record<string, string> = {};
  for (const variable of Object.values(CONFIG_VARIABLES)) {
    const value = options[attributeOf(variable)];
    if (value !== undefined) overrides[variable] = value;
  }
  return parseConfig(process.env, overrides);
}

function addConfigFlags(command: Command, keys: ReadonlyArray<keyof Config>): Command {
  for (const key of keys) {
    command.addOption(new Option(`${flagOf(CONFIG_VARIABLES[key])} <value>`, `${FLAG_HELP[key]} (env ${CONFIG_VARIABLES[key]})`));
  }
  return command;
}

/** Runs a one-shot command against the configured database and prints its JSON result. */
async function withServices(options: Record<string, string | undefined>, work: (services: Services) => Promise<unknown>): Promise<void> {
  const config = configFrom(options);
  const { buildServices } = await import('../app/services.js');
  const services = await buildServices(config);
  try {
    const result = await work(services);
    if (result !== undefined) process.stdout.write(`${terminalJson(result)}\n`);
  } finally {
    await services.close();
  }
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 control characters but writes DEL and C1
 * (U+007F–U+009F, among them the 8-bit CSI) as they are; they get `\u` escapes too.
 */
function terminalJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function parseId(value: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${what} must be a positive integer, got '${value}'`);
  return Number(value);
}

function roundingFlag(value: string): RoundingMode {
  if (!isRoundingMode(value)) throw new UsageError(`--rounding must be one of ${ROUNDING_MODES.join(', ')}, not '${value}'`);
  return value;
}

function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined) return [...DEFAULT_SCOPES];
  const scopes = value.split(',').map((scope) => scope.trim());
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new UsageError(`unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; known: ${SCOPES.join(', ')}`);
  }
  return scopes.filter(isScope);
}

function parseRole(value: string): StaffRole {
  if (!isStaffRole(value)) throw new UsageError(`unknown role '${value}'; known: ${STAFF_ROLES.join(', ')}`);
  return value;
}

/** Records a list command reads per query: the work of one query is bounded, the output is not. */
const LIST_PAGE = 1000;

/** Writes each page `next(afterId)` gives as JSON lines (one object a line), until a short page. */
async function writeJsonLines<T extends { id: number }>(next: (afterId: number) => Promise<T[]>): Promise<void> {
  for (let afterId = 0; ; ) {
    const page = await next(afterId);
    if (page.length > 0) process.stdout.write(page.map((record) => `${terminalJson(record)}\n`).join(''));
    if (page.length < LIST_PAGE) return;
    afterId = page[page.length - 1]!.id;
  }
}

/** The package's version, from its package.json (beside dist/ and src/ alike). */
function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

const DATABASE_FLAGS: ReadonlyArray<keyof Config> = ['dataDir', 'databaseUrl'];
const WORKER_FLAGS: ReadonlyArray<keyof Config> = [...DATABASE_FLAGS, 'webhookAllowPrivate', 'webhookRetryScheduleSeconds', 'webhookConcurrency', 'webhookPerStore', 'maintenance', 'importRetentionDays', 'historyRetentionDays', 'historyKey', 'logLevel', 'metricsPort', 'metricsHost', 'metricsToken'];

export function buildCli(): Command {
  const program = new Command('pricebook')
    .description('Pricebook: trade (customer-specific) product prices over an HTTPS API')
    .version(packageVersion(), '-V, --version', 'print the version of Pricebook and exit')
    .showHelpAfterError()
    .exitOverride();

  addConfigFlags(program.command('serve').description('run the HTTPS API (what `npm start` runs); flags override the environment'), Object.keys(CONFIG_VARIABLES) as Array<keyof Config>).action(
    async (options: Record<string, string | undefined>) => {
      const { serve } = await import('./serve.js');
      stopOnSignals(await serve(configFrom(options)));
    },
  );

  addConfigFlags(program.command('worker').description('run only the webhook delivery worker; flags override the environment'), WORKER_FLAGS).action(
    async (options: Record<string, string | undefined>) => {
      const { runWorker } = await import('./worker.js');
      stopOnSignals(await runWorker(configFrom(options)));
    },
  );

  const stores = program.command('stores').description('manage stores');
  const CURRENCY_HELP = 'ISO 4217 code of the store\'s prices (GBP, EUR, USD, JPY…)';
  const ROUNDING_HELP = `how prices the server computes (a percentage list's) round to the currency's minor unit: ${ROUNDING_MODES.join(', ')}`;
  addConfigFlags(
    stores
      .command('create')
      .description('create a store; prints {"id","name"} (stores list shows its currency and rounding)')
      .requiredOption('--name <name>', 'store name')
      .option('--currency <code>', `${CURRENCY_HELP}; default GBP`, 'GBP')
      .option('--rounding <mode>', `${ROUNDING_HELP}; default half-up`, 'half-up'),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { name: string; currency: string; rounding: string }) =>
    withServices(options, (services) =>
      services.credentials.createStore(options.name, { currency: options.currency, rounding: roundingFlag(options.rounding) }).then(({ id, name }) => ({ id, name })),
    ),
  );

  addConfigFlags(
    stores
      .command('set-currency')
      .description('change a store\'s currency and rounding (prices are kept as they are: only their currency is named anew); prints {"id","name","currency","rounding"}')
      .requiredOption('--store <id>', 'store id')
      .requiredOption('--currency <code>', CURRENCY_HELP)
      .option('--rounding <mode>', `${ROUNDING_HELP}; default: the store's, as it is`),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string; currency: string }) =>
    withServices(options, (services) =>
      services.credentials
        .setMoney(parseId(options.store, '--store'), { currency: options.currency, ...(options.rounding !== undefined && { rounding: roundingFlag(options.rounding) }) })
        .then(({ id, name, currency, rounding }) => ({ id, name, currency, rounding })),
    ),
  );

  addConfigFlags(stores.command('list').description('list the stores, one JSON object {"id","name","currency","rounding","createdAt"} a line, by id'), DATABASE_FLAGS).action(
    (options: Record<string, string | undefined>) =>
      withServices(options, (services) => writeJsonLines((afterId) => services.credentials.stores(afterId, LIST_PAGE))),
  );

  addConfigFlags(
    stores
      .command('set-approval')
      .description('whether the store\'s change sets need an approval by someone who did not write them (docs/change-sets.md); prints {"id","requireApproval"}')
      .requiredOption('--store <id>', 'store id')
      .requiredOption('--require <on|off>', 'on: a change set is applied only once approved; off (the default of a new store): anyone with trade_prices:write applies'),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string; require: string }) =>
    withServices(options, async (services) => {
      if (options.require !== 'on' && options.require !== 'off') throw new UsageError(`--require must be on or off, not '${options.require}'`);
      const id = parseId(options.store, '--store');
      await services.credentials.setRequireApproval(id, options.require === 'on');
      return { id, requireApproval: options.require === 'on' };
    }),
  );

  const keys = program.command('keys').description('manage API credentials');
  addConfigFlags(
    keys
      .command('create')
      .description('create a credential; prints {"id","storeId","scopes","key","secret","token"} (secret and token are shown only here; "name" too when given)')
      .requiredOption('--store <id>', 'store id')
      .option('--scopes <list>', `comma-separated scopes: ${SCOPES.join(', ')} (default all but trade_prices:approve)`)
      .option('--name <name>', 'a name to tell the credential apart (keys list, keys revoke NAME); 1-100 characters, not only digits'),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string; scopes?: string; name?: string }) =>
    withServices(options, (services) => services.credentials.issueKey(parseId(options.store, '--store'), parseScopes(options.scopes), options.name)),
  );
  addConfigFlags(
    keys
      .command('list')
      .description('list a store\'s credentials, one JSON object {"id","storeId","name","key","scopes","createdAt","revokedAt"} a line, by id; never a secret')
      .requiredOption('--store <id>', 'store id'),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string }) =>
    withServices(options, (services) => {
      const storeId = parseId(options.store, '--store');
      return writeJsonLines(async (afterId) =>
        (await services.credentials.keysOfStore(storeId, afterId, LIST_PAGE)).map((key) => ({ id: key.id, storeId: key.storeId, name: key.name, key: key.key, scopes: key.scopes, createdAt: key.createdAt, revokedAt: key.revokedAt })),
      );
    }),
  );
  addConfigFlags(
    keys
      .command('revoke')
      .description('revoke a credential at once, by its id or its name (a name two credentials share is refused, listing them); prints {"id","revoked"}')
      .argument('<id-or-name>', 'credential id, or the name given at keys create')
      .option('--store <id>', 'look the name up in this store only'),
    DATABASE_FLAGS,
  ).action((idOrName: string, options: Record<string, string | undefined> & { store?: string }) =>
    withServices(options, async (services) => {
      const storeId = options.store === undefined ? undefined : parseId(options.store, '--store');
      const keyId = /^\d+$/.test(idOrName) ? parseId(idOrName, 'credential id') : (await services.credentials.keyNamed(idOrName, storeId)).id;
      await services.credentials.revokeKey(keyId);
      return { id: keyId, revoked: true };
    }),
  );
  registerStaffCommands(program);
  const history = program.command('history').description('the price history (docs/history.md)');
  addConfigFlags(
    history
      .command('verify')
      .description(
        'walk each store\'s history chain (or one store\'s), recomputing every hash, and check the head; prints {"storeId","entries","head","checkpoint","ok"} a line per store; ' +
          'exits 1 naming the first broken entry (edited, removed or inserted behind the API\'s back)',
      )
      .option('--store <id>', 'verify this store only'),
    [...DATABASE_FLAGS, 'historyKey'],
  ).action((options: Record<string, string | undefined> & { store?: string }) => {
    const storeId = options.store === undefined ? undefined : parseId(options.store, '--store');
    const config = configFrom(options);
    return withServices(options, async (services) => {
      const { verifyHistory } = await import('./history-verify.js');
      await verifyHistory(services, config.historyKey, storeId, { stdout: process.stdout, stderr: process.stderr });
    });
  });
  registerPricesCommands(program);
  return program;
}

/** `pricebook staff …`: staff accounts of a store (docs/staff.md). */
function registerStaffCommands(program: Command): void {
  const staff = program.command('staff').description('manage staff accounts (the admin page\'s sign-in)');
  addConfigFlags(
    staff
      .command('create')
      .description('create a staff account; prints {"id","storeId","email","name","role","mustChangePassword","createdAt","initialPassword"}: a one-time password, shown only here, to be changed at the first sign-in')
      .requiredOption('--store <id>', 'store id')
      .requiredOption('--email <email>', 'the sign-in e-mail; one account per e-mail on the whole server')
      .requiredOption('--name <name>', 'display name (1-100 characters), shown as who changed what')
      .requiredOption('--role <role>', `one of ${STAFF_ROLES.join(', ')}`),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string; email: string; name: string; role: string }) =>
    withServices(options, async (services) => {
      const storeId = parseId(options.store, '--store');
      const role = parseRole(options.role);
      const account = await services.staff.create(storeId, { email: options.email, name: options.name, role });
      return { id: account.id, storeId: account.storeId, email: account.email, name: account.name, role: account.role, mustChangePassword: account.mustChangePassword, createdAt: account.createdAt, initialPassword: account.initialPassword };
    }),
  );
  addConfigFlags(
    staff
      .command('list')
      .description('list a store\'s staff accounts, one JSON object {"id","storeId","email","name","role","mustChangePassword","createdAt","disabledAt"} a line, by id')
      .requiredOption('--store <id>', 'store id'),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string }) =>
    withServices(options, (services) => {
      const storeId = parseId(options.store, '--store');
      return writeJsonLines((afterId) => services.staff.accountsOfStore(storeId, afterId, LIST_PAGE));
    }),
  );
  addConfigFlags(
    staff
      .command('disable')
      .description('disable a staff account and end all its sessions at once; prints {"id","email","disabled"}')
      .argument('<id-or-email>', 'the account\'s id or e-mail')
      .requiredOption('--store <id>', 'store id'),
    DATABASE_FLAGS,
  ).action((idOrEmail: string, options: Record<string, string | undefined> & { store: string }) =>
    withServices(options, async (services) => {
      const account = await services.staff.disable(parseId(options.store, '--store'), idOrEmail);
      return { id: account.id, email: account.email, disabled: true };
    }),
  );
  addConfigFlags(
    staff
      .command('reset')
      .description('give a staff account a new one-time password (to be changed at the next sign-in) and end all its sessions; prints {"id","email","initialPassword"}')
      .argument('<id-or-email>', 'the account\'s id or e-mail')
      .requiredOption('--store <id>', 'store id'),
    DATABASE_FLAGS,
  ).action((idOrEmail: string, options: Record<string, string | undefined> & { store: string }) =>
    withServices(options, async (services) => {
      const account = await services.staff.reset(parseId(options.store, '--store'), idOrEmail);
      return { id: account.id, email: account.email, initialPassword: account.initialPassword };
    }),
  );
}

export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildCli().parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const message = error instanceof Error ? error.message : String(error);
    // Messages quote stored text (a SKU, the API's answer): control characters written out.
    const details = error instanceof DetailedError ? error.details.map((line) => `  ${escapeControlCharacters(line)}\n`).join('') : '';
    process.stderr.write(`pricebook: ${escapeControlCharacters(message)}\n${details}`);
    // 2: the command line or the configuration is wrong; 1: the operation was refused or failed.
    return error instanceof ConfigError || error instanceof UsageError ? 2 : 1;
  }
}

const exitCode = await runCli(process.argv.slice(2));
if (exitCode !== 0) process.exit(exitCode);
