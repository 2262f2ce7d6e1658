import { isIP } from 'node:net';

export class ConfigError extends Error {}

/**
 * Reads a setting's value as set (never empty: an empty variable is unset), or throws a
 * `ConfigError` whose message starts with the `variable`'s name.
 */
export type SettingParser<T> = (value: string, variable: string) => T;

/** The text as it is. */
export const text: SettingParser<string> = (value) => value;

/** A whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number): SettingParser<number> {
  return (value, variable) => {
    const number = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
    if (!(number >= min && number <= max)) throw new ConfigError(`${variable} must be a whole number from ${min} to ${max}, got '${value}'`);
    return number;
  };
}

export function port(options: { zeroDisables: boolean }): SettingParser<number> {
  const { zeroDisables } = options;
  return (value, variable) => {
    const number = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
    if (!(number <= 65535 && (number >= 1 || (zeroDisables && number === 0)))) {
      throw new ConfigError(`${variable} must be a port number${zeroDisables ? ' (0 disables)' : ''}, got '${value}'`);
    }
    return number;
  };
}

/** Whole numbers for bucket sizes; leak rates may be fractional, to a thousandth. */
export function positive(options: { whole: boolean }): SettingParser<number> {
  const { whole } = options;
  const pattern = whole ? /^\d{1,9}$/ : /^\d{1,9}(\.\d{1,3})?$/;
  return (value, variable) => {
    const number = pattern.test(value) ? Number(value) : NaN;
    if (!(number > 0)) {
      throw new ConfigError(`${variable} must be a positive ${whole ? 'whole number' : 'number (at most 3 decimals)'}, got '${value}'`);
    }
    return number;
  };
}

/** `1` or `true`, `0` or `false`. */
export const onOff: SettingParser<boolean> = (value, variable) => {
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new ConfigError(`${variable} must be 1 or 0, got '${value}'`);
};

/** Comma-separated delays in seconds (to a thousandth), at most 100. */
export const delays: SettingParser<readonly number[]> = (value, variable) => {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length > 100 || parts.some((delay) => !/^\d{1,7}(\.\d{1,3})?$/.test(delay))) {
    throw new ConfigError(`${variable} must be comma-separated delays in seconds (at most 100), got '${value}'`);
  }
  return parts.map(Number);
};

export function url(protocols: readonly string[]): SettingParser<string> {
  return (value, variable) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(`${variable} is not a URL`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(`${variable} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
    return value;
  };
}

/** Comma-separated IP addresses and CIDRs; empty entries are skipped. */
export const addressesAndCidrs: SettingParser<readonly string[]> = (value, variable) => {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
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
};

/** An IP address (the metrics listener binds to one address, never a host name). */
export const address: SettingParser<string> = (value, variable) => {
  if (isIP(value) === 0) throw new ConfigError(`${variable} must be an IP address, got '${value}'`);
  return value;
};

/** 16 to 256 characters of the token68 alphabet (RFC 7235), so it fits a Bearer header as is. */
export const bearerToken: SettingParser<string> = (value, variable) => {
  if (!/^[A-Za-z0-9\-._~+/]{16,256}=*$/.test(value)) {
    throw new ConfigError(`${variable} must be 16 to 256 characters of letters, digits and - . _ ~ + /`);
  }
  return value;
};

/** 32 to 256 printable ASCII characters (`openssl rand -hex 32` makes one): long enough that it cannot be guessed. */
export const secretKey: SettingParser<string> = (value, variable) => {
  if (!/^[!-~]{32,256}$/.test(value))
    throw new ConfigError(`${variable} must be 32 to 256 printable characters without spaces (openssl rand -hex 32 makes one)`);
  return value;
};

/** Printable ASCII without spaces or braces (braces would change the keys' Redis Cluster hash tags). */
export const redisPrefix: SettingParser<string> = (value, variable) => {
  if (!/^[!-z|~]{1,100}$/.test(value)) throw new ConfigError(`${variable} must be 1 to 100 printable characters without spaces or braces, got '${value}'`);
  return value;
};

export function oneOf(choices: readonly string[]): SettingParser<string> {
  return (value, variable) => {
    if (!choices.includes(value)) throw new ConfigError(`${variable} must be one of ${choices.join(', ')}`);
    return value;
  };
}
