import { Ajv, type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { hasAtMostDecimals } from '../../modules/shared/money.js';
import { validationFailed } from '../../modules/shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import { withRejectedValue } from '../../modules/shared/rejected-value.js';
import { controlCharacterProblem } from '../../text/control-characters.js';

// ajv-formats is CommonJS with a default export; under NodeNext its type is the module object.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

/** The schema keyword of strings that refuse control characters (`src/contract/common.ts` `NoControlCharacters`). */
const NO_CONTROL_CHARACTERS = 'x-no-control-characters';

/**
 * Request bodies are checked as they are: no type coercion, unknown fields are errors (never
 * dropped), no defaults filled in, and every problem reported, not only the first.
 */
export function createBodyAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false, strict: true, ownProperties: true });
  addFormats(ajv, ['email', 'date-time']);
  ajv.addKeyword({
    keyword: 'x-decimal-places',
    type: 'number',
    schemaType: 'number',
    error: { message: ({ schema }) => `must have at most ${String(schema)} decimal places` },
    validate: (places: number, value: number) => hasAtMostDecimals(value, places),
  });
  // SKUs, names, titles, e-mail addresses: no C0/C1 control character (the message says which and where).
  const noControlCharacters: SchemaValidateFunction = (refuse: boolean, value: string) => {
    const problem = refuse ? controlCharacterProblem(value) : undefined;
    noControlCharacters.errors = problem === undefined ? [] : [{ keyword: NO_CONTROL_CHARACTERS, message: problem, params: {} }];
    return problem === undefined;
  };
  ajv.addKeyword({ keyword: NO_CONTROL_CHARACTERS, type: 'string', schemaType: 'boolean', errors: true, validate: noControlCharacters });
  return ajv;
}

/** Fastify's compiler for bodies; params and query strings are parsed by `strict-params.ts`. */
export function bodyValidatorCompiler(ajv: Ajv): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') return () => true;
    const validate: ValidateFunction = ajv.compile(schema as object);
    const isArray = (schema as { type?: unknown }).type === 'array';
    return (data: unknown) => {
      if (validate(data)) return true;
      const problems = (validate.errors ?? []).map((error) => toProblem(error, isArray, data));
      return { error: validationFailed(problems, isArray && Array.isArray(data) ? (data as unknown[]).length : undefined) };
    };
  };
}

/**
 * `/3/price` in a bulk array becomes index 3, field `price`; nested paths read `variations[2].sku`.
 * `data` is what was validated: the problem quotes the value it refused there (`rejectedValue`),
 * but not for a missing or an unknown field, nor for an object's number of fields.
 */
export function toProblem(error: ErrorObject, bodyIsArray: boolean, data: unknown): FieldProblem {
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapePointer);
  const refused = VALUE_LESS_KEYWORDS.has(error.keyword) ? undefined : valueAt(data, segments);
  let index: number | undefined;
  if (bodyIsArray && segments.length > 0) index = Number(segments.shift());
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    segments.push(String((error.params as { missingProperty: string }).missingProperty));
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
    message = 'is not a known field';
  } else if (error.keyword === 'enum') {
    // Name what is allowed (a webhook's topics, a replace's scopes): the caller need not look it up.
    message = `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
  } else if (error.keyword === 'minProperties') {
    message = 'must have at least one field';
  }
  const field =
    segments.length === 0
      ? null
      : segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`), '');
  return withRejectedValue(index === undefined ? { field, message } : { index, field, message }, refused);
}

/** Keywords whose problem is about a field's presence or an object's fields, not a value sent. */
const VALUE_LESS_KEYWORDS = new Set(['required', 'additionalProperties', 'minProperties', 'maxProperties']);

/** The value at a JSON pointer's segments (own properties only, as the validator reads them). */
function valueAt(data: unknown, segments: readonly string[]): unknown {
  let value = data;
  for (const segment of segments) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
