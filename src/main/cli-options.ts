import fs from 'node:fs';
import { type Command, Option } from 'commander';
import type { Services } from '../app/services.js';
import { CONFIG_VARIABLES, type Config, parseConfig } from '../config/config.js';
import { flagOf, type Setting, SETTINGS, shownDefault } from '../config/settings.js';
import { isRoundingMode, ROUNDING_MODES, type RoundingMode } from '../modules/currency/rounding.js';
import { DEFAULT_SCOPES, isScope, SCOPES, type Scope } from '../modules/stores/scopes.js';
import { isStaffRole, STAFF_ROLES, type StaffRole } from '../modules/staff/roles.js';
import { UsageError } from './usage-error.js';

/*
 * What the CLI's commands share: their flags (each setting's, from the settings table), the
 * config they make of flags and environment, the services they run against, and how their
 * arguments are parsed and their answers printed.
 */

/** Where commander keeps a flag's value: `--rate-limit-bucket` → `rateLimitBucket`. */
function attributeOf(variable: string): string {
  return flagOf(variable)
    .slice(2)
    .replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** A setting's line of `--help`: what it does, then its default (but for none, `unset`), in plain text. */
function helpOf(setting: Setting<unknown>): string {
  const fallback = shownDefault(setting)
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return fallback === 'unset' ? setting.help : `${setting.help}; default ${fallback}`;
}

/** The config from the environment with a command's flags on top. */
export function configFrom(options: Record<string, string | undefined>): Config {
  const overrides: Record<string, string> = {};
  for (const variable of Object.values(CONFIG_VARIABLES)) {
    const value = options[attributeOf(variable)];
    if (value !== undefined) overrides[variable] = value;
  }
  return parseConfig(process.env, overrides);
}

export function addConfigFlags(command: Command, keys: ReadonlyArray<keyof Config>): Command {
  for (const key of keys) {
    const setting: Setting<unknown> = SETTINGS[key];
    command.addOption(new Option(`${flagOf(setting.env)} <value>`, `${helpOf(setting)} (env ${setting.env})`));
  }
  return command;
}

/** Runs a one-shot command against the configured database and prints its JSON result. */
export async function withServices(options: Record<string, string | undefined>, work: (services: Services) => Promise<unknown>): Promise<void> {
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
export function terminalJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function parseId(value: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${what} must be a positive integer, got '${value}'`);
  return Number(value);
}

export function roundingFlag(value: string): RoundingMode {
  if (!isRoundingMode(value)) throw new UsageError(`--rounding must be one of ${ROUNDING_MODES.join(', ')}, not '${value}'`);
  return value;
}

export function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined) return [...DEFAULT_SCOPES];
  const scopes = value.split(',').map((scope) => scope.trim());
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new UsageError(`unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; known: ${SCOPES.join(', ')}`);
  }
  return scopes.filter(isScope);
}

export function parseRole(value: string): StaffRole {
  if (!isStaffRole(value)) throw new UsageError(`unknown role '${value}'; known: ${STAFF_ROLES.join(', ')}`);
  return value;
}

/** Records a list command reads per query: the work of one query is bounded, the output is not. */
export const LIST_PAGE = 1000;

/** Writes each page `next(afterId)` gives as JSON lines (one object a line), until a short page. */
export async function writeJsonLines<T extends { id: number }>(next: (afterId: number) => Promise<T[]>): Promise<void> {
  for (let afterId = 0; ;) {
    const page = await next(afterId);
    if (page.length > 0) process.stdout.write(page.map((record) => `${terminalJson(record)}\n`).join(''));
    if (page.length < LIST_PAGE) return;
    afterId = page[page.length - 1]!.id;
  }
}

/** The package's version, from its package.json (beside dist/ and src/ alike). */
export function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

export const DATABASE_FLAGS: ReadonlyArray<keyof Config> = ['dataDir', 'databaseUrl'];
export const WORKER_FLAGS: ReadonlyArray<keyof Config> = [
  ...DATABASE_FLAGS,
  'webhookAllowPrivate',
  'webhookRetryScheduleSeconds',
  'webhookConcurrency',
  'webhookPerStore',
  'maintenance',
  'importRetentionDays',
  'historyRetentionDays',
  'historyKey',
  'logLevel',
  'metricsPort',
  'metricsHost',
  'metricsToken',
];
