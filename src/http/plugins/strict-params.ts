import { Ajv, type ValidateFunction } from 'ajv';
import type { TObject, TSchema } from '@sinclair/typebox';
import { AppError } from '../../modules/shared/errors.js';
import { canonicalTimestamp, TIMESTAMP_RULE } from '../../modules/shared/timestamps.js';

/**
 * Path parameters and query strings, parsed strictly. Query values arrive as text; each is
 * converted by its schema type with exact rules (`count=1e1`, `count= 5`, `count=0x10` are
 * errors, never numbers), then checked against the schema's ranges. Unknown and repeated
 * parameters are errors too.
 */
type Parser = (input: Record<string, unknown>) => Record<string, unknown>;

const INTEGER = /^-?(0|[1-9]\d{0,15})$/;
const ID = /^[1-9]\d{0,15}$/;

const rangeAjv = new Ajv({ allErrors: false, coerceTypes: false, strict: false });
const queryParsers = new WeakMap<object, Parser>();

export function parseQuery(schema: TObject | undefined, input: Record<string, unknown>): Record<string, unknown> {
  if (schema === undefined) {
    const unknown = Object.keys(input)[0];
    if (unknown !== undefined) throw invalidQuery(unknown, 'is not a parameter of this endpoint');
    return input;
  }
  let parser = queryParsers.get(schema);
  if (parser === undefined) {
    parser = compileQueryParser(schema);
    queryParsers.set(schema, parser);
  }
  return parser(input);
}

/** Ids are positive integers; anything else names no record, so it is a 404. */
export function parseIdParams(input: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...input };
  for (const [name, value] of Object.entries(input)) {
    if (name !== 'id' && !name.endsWith('Id')) continue;
    const id = typeof value === 'string' && ID.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id)) throw new AppError('not_found', `No record has the id '${String(value).slice(0, 40)}'`);
    result[name] = id;
  }
  return result;
}

export function invalidQuery(name: string, problem: string): AppError {
  return new AppError('invalid_query', `Invalid query parameter '${name.slice(0, 64)}': ${problem}`);
}

function compileQueryParser(schema: TObject): Parser {
  const properties: Record<string, TSchema> = schema.properties;
  const checks = new Map<string, ValidateFunction>(Object.entries(properties).map(([name, property]) => [name, rangeAjv.compile(stripDefault(property))]));
  return (input) => {
    const output: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(input)) {
      const property = properties[name];
      const check = checks.get(name);
      if (property === undefined || check === undefined) throw invalidQuery(name, 'is not a parameter of this endpoint');
      if (typeof raw !== 'string') throw invalidQuery(name, 'must be given once');
      // PostgreSQL text cannot hold a NUL: no value with one can match anything.
      if (raw.includes('\u0000')) throw invalidQuery(name, 'must not contain the NUL character (%00)');
      const value = convert(raw, property);
      if (value === undefined || !check(value)) throw invalidQuery(name, describe(property));
      output[name] = value;
    }
    for (const name of schema.required ?? []) {
      if (output[name] === undefined) throw invalidQuery(name, 'is required');
    }
    for (const [name, property] of Object.entries(properties)) {
      const fallback = (property as { default?: unknown }).default;
      if (output[name] === undefined && fallback !== undefined) output[name] = fallback;
    }
    return output;
  };
}

function convert(raw: string, property: TSchema): unknown {
  // A moment is answered and compared in its canonical form, whatever offset it came with.
  if ((property as { format?: unknown }).format === 'date-time') return canonicalTimestamp(raw);
  switch ((property as { type?: unknown }).type) {
    case 'integer':
      return INTEGER.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    default:
      return raw;
  }
}

function describe(property: TSchema): string {
  const { type, minimum, maximum, minLength, maxLength, format } = property as Record<string, unknown>;
  if (format === 'date-time') return TIMESTAMP_RULE;
  if (type === 'integer') {
    if (minimum !== undefined && maximum !== undefined) return `must be an integer from ${String(minimum)} to ${String(maximum)}`;
    if (minimum !== undefined) return `must be an integer ≥ ${String(minimum)}`;
    return 'must be an integer';
  }
  if (type === 'boolean') return 'must be true or false';
  if (minLength !== undefined || maxLength !== undefined) return `must have ${String(minLength ?? 0)} to ${String(maxLength ?? '∞')} characters`;
  return 'is invalid';
}

/** The schema of the converted value: no default to fill, no format (a moment is checked by `convert`). */
function stripDefault(property: TSchema): TSchema {
  const copy: Record<string, unknown> = { ...property };
  delete copy.default;
  delete copy.format;
  return copy as TSchema;
}
