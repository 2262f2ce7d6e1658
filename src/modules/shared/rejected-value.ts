import type { FieldProblem } from '../../contract/errors.js';
import { clip } from '../../text/clip.js';

/** The words of a field's name that mark a secret: its value is never echoed, whatever it is. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'token',
  'key',
  'apikey',
  'credential',
  'credentials',
  'authorization',
  'signature',
  'cookie',
]);

/**
 * What a 422's problem may quote of the value the request sent for `field` (`FieldProblem.value`):
 * a string (clipped), a number, a boolean or null as they are; nothing for a missing field, an
 * object or an array (no single value), or a field whose name has a secret's word in it
 * (`password`, `newPassword`, `secret`, `webhook_token`, `apiKey`, `variations[0].key`): an
 * answer may be logged, and a secret sent to the wrong field is still a secret.
 */
export function rejectedValue(field: string | null, value: unknown): FieldProblem['value'] {
  if (field !== null && namesASecret(field)) return undefined;
  if (typeof value === 'string') return clip(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return undefined;
}

/** A name's words: split at anything but letters and digits, and where a lower-case letter meets an upper-case one (camelCase). */
function namesASecret(field: string): boolean {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word));
}

/** `problem` with `value` when `rejectedValue` allows it, else as it is. */
export function withRejectedValue(problem: FieldProblem, value: unknown): FieldProblem {
  const echoed = rejectedValue(problem.field, value);
  return echoed === undefined ? problem : { ...problem, value: echoed };
}
