import { ConfigError } from './setting-parsers.js';
import { type Setting, SETTINGS } from './settings.js';

export { ConfigError } from './setting-parsers.js';

/**
 * Every setting of the service (`SETTINGS` says what each is), parsed once at start from the
 * environment (and the `serve` flags, which override it), then frozen and passed in. Nothing
 * else reads `process.env`.
 */
export type Config = { readonly [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };

type Env = Readonly<Record<string, string | undefined>>;

/** The environment variable behind each setting, in the order the docs list them. */
export const CONFIG_VARIABLES = Object.fromEntries(Object.entries(SETTINGS).map(([key, { env }]) => [key, env])) as { readonly [K in keyof Config]: string };

/**
 * Parses the settings. `overrides` are raw strings keyed like the environment (the CLI passes
 * its flags this way), so flags and variables share one set of rules and error messages.
 */
export function parseConfig(env: Env, overrides: Env = {}): Config {
  const parsed: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as Array<[string, Setting<unknown>]>) {
    const value = overrides[setting.env] ?? env[setting.env];
    if (value !== undefined && value !== '') parsed[key] = setting.parse(value, setting.env);
    else
      parsed[key] =
        typeof setting.default === 'function' ? (setting.default as (before: Readonly<Record<string, unknown>>) => unknown)(parsed) : setting.default;
  }
  const config = parsed as unknown as Config;
  const name = (key: keyof Config) => CONFIG_VARIABLES[key];
  if ((config.tlsCertFile === undefined) !== (config.tlsKeyFile === undefined)) {
    throw new ConfigError(`${name('tlsCertFile')} and ${name('tlsKeyFile')} must be set together`);
  }
  if (config.webhookPerStore > config.webhookConcurrency) {
    throw new ConfigError(
      `${name('webhookPerStore')} (${config.webhookPerStore}) must not exceed ${name('webhookConcurrency')} (${config.webhookConcurrency})`,
    );
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
