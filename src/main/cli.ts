#!/usr/bin/env node
import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { ChainHead } from '../modules/history/history-repository.js';
import { CONFIG_VARIABLES, ConfigError, type Config } from '../config/config.js';
import { ROUNDING_MODES } from '../modules/currency/rounding.js';
import { ASKED_FOR_SCOPES, SCOPES } from '../modules/stores/scopes.js';
import { escapeControlCharacters } from '../text/control-characters.js';
import {
  addConfigFlags,
  DATABASE_FLAGS,
  LIST_PAGE,
  packageVersion,
  parseId,
  parseScopes,
  roundingFlag,
  withServices,
  WORKER_FLAGS,
  writeJsonLines,
  configFrom,
} from './cli-options.js';
import { registerStaffCommands } from './staff-commands.js';
import { registerPricesCommands } from './prices-commands.js';
import { DetailedError } from './prices/remote-client.js';
import { stopOnSignals } from './stop-on-signals.js';
import { UsageError } from './usage-error.js';

export function buildCli(): Command {
  const program = new Command('pricebook')
    .description('Pricebook: trade (customer-specific) product prices over an HTTPS API')
    .version(packageVersion(), '-V, --version', 'print the version of Pricebook and exit')
    .showHelpAfterError()
    .exitOverride();

  addConfigFlags(
    program.command('serve').description('run the HTTPS API (what `npm start` runs); flags override the environment'),
    Object.keys(CONFIG_VARIABLES) as Array<keyof Config>,
  ).action(async (options: Record<string, string | undefined>) => {
    const { serve } = await import('./serve.js');
    stopOnSignals(await serve(configFrom(options)));
  });

  addConfigFlags(program.command('worker').description('run only the webhook delivery worker; flags override the environment'), WORKER_FLAGS).action(
    async (options: Record<string, string | undefined>) => {
      const { runWorker } = await import('./worker.js');
      stopOnSignals(await runWorker(configFrom(options)));
    },
  );

  const stores = program.command('stores').description('manage stores');
  const CURRENCY_HELP = "ISO 4217 code of the store's prices (GBP, EUR, USD, JPY…)";
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
      services.credentials
        .createStore(options.name, { currency: options.currency, rounding: roundingFlag(options.rounding) })
        .then(({ id, name }) => ({ id, name })),
    ),
  );

  addConfigFlags(
    stores
      .command('set-currency')
      .description(
        'change a store\'s currency and rounding (prices are kept as they are: only their currency is named anew); prints {"id","name","currency","rounding"}',
      )
      .requiredOption('--store <id>', 'store id')
      .requiredOption('--currency <code>', CURRENCY_HELP)
      .option('--rounding <mode>', `${ROUNDING_HELP}; default: the store's, as it is`),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string; currency: string }) =>
    withServices(options, (services) =>
      services.credentials
        .setMoney(parseId(options.store, '--store'), {
          currency: options.currency,
          ...(options.rounding !== undefined && { rounding: roundingFlag(options.rounding) }),
        })
        .then(({ id, name, currency, rounding }) => ({ id, name, currency, rounding })),
    ),
  );

  addConfigFlags(
    stores.command('list').description('list the stores, one JSON object {"id","name","currency","rounding","createdAt"} a line, by id'),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined>) =>
    withServices(options, (services) => writeJsonLines((afterId) => services.credentials.stores(afterId, LIST_PAGE))),
  );

  addConfigFlags(
    stores
      .command('set-approval')
      .description(
        'whether the store\'s price changes need an approval by someone who did not write them (docs/change-sets.md); prints {"id","requireApproval"}',
      )
      .requiredOption('--store <id>', 'store id')
      .requiredOption(
        '--require <on|off>',
        'on: prices change through change sets, each applied only once approved, and only keys with trade_prices:direct write prices directly; off (the default of a new store): anyone with trade_prices:write does either',
      ),
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
      .option('--scopes <list>', `comma-separated scopes: ${SCOPES.join(', ')} (default all but ${ASKED_FOR_SCOPES.join(' and ')})`)
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
        (await services.credentials.keysOfStore(storeId, afterId, LIST_PAGE)).map((key) => ({
          id: key.id,
          storeId: key.storeId,
          name: key.name,
          key: key.key,
          scopes: key.scopes,
          createdAt: key.createdAt,
          revokedAt: key.revokedAt,
        })),
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
        "check each store's history (or one store's): walk its chain recomputing every hash, check the head and the anchors given, and check the trade prices and list entries as-of reads use against their entries; " +
          'prints {"storeId","entries","records","head","checkpoint","anchors","ok"} a line per store, with "broken" (every break, the first 100) and "brokenCount" when it does not hold; ' +
          "exits 1 naming the first break (edited, removed or inserted behind the API's back)",
      )
      .option('--store <id>', 'verify this store only')
      .option(
        '--expect-head <seq:hash>',
        'with --store: a head recorded earlier (GET /v1/price-history/head, or a line of an earlier verify): the chain must still pass through it',
      )
      .option('--anchors <file>', "heads recorded earlier, as JSON lines an earlier history verify printed: every store's chain must still pass through each"),
    [...DATABASE_FLAGS, 'historyKey'],
  ).action((options: Record<string, string | undefined> & { store?: string; expectHead?: string; anchors?: string }) => {
    const storeId = options.store === undefined ? undefined : parseId(options.store, '--store');
    const config = configFrom(options);
    return withServices(options, async (services) => {
      const { parseAnchors, parseHead, verifyHistory } = await import('./history-verify.js');
      const anchors = options.anchors === undefined ? new Map<number, ChainHead[]>() : parseAnchors(readAnchorsFile(options.anchors), options.anchors);
      if (options.expectHead !== undefined) {
        if (storeId === undefined) throw new UsageError("--expect-head needs --store: a head is one store's");
        anchors.set(storeId, [...(anchors.get(storeId) ?? []), parseHead(options.expectHead, '--expect-head')]);
      }
      await verifyHistory(services, { key: config.historyKey, storeId, anchors }, { stdout: process.stdout, stderr: process.stderr });
    });
  });
  registerPricesCommands(program);
  return program;
}

/** The text of an anchors file; a file that cannot be read is a usage error. */
function readAnchorsFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--anchors: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
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
