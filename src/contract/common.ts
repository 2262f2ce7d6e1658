import { Type, type SchemaOptions, type TSchema, type Static, type TNumber, type TProperties, type TObject, type TString } from '@sinclair/typebox';

/**
 * `schema` with other annotations (a description, a default): the same JSON as `{ ...schema,
 * ...options }`, typed as `schema` is, so the build's declarations can name the type (a spread
 * of a TypeBox schema carries its symbol keys, which a declaration file cannot name).
 */
export function Annotated<T extends TSchema>(schema: T, options: SchemaOptions): T {
  return { ...schema, ...options };
}

/**
 * Text that names something (a SKU, a name, a title, an e-mail address): no C0 or C1 control
 * character (U+0000–U+001F, U+007F–U+009F), so nothing stored can drive a terminal or a log
 * viewer. `x-no-control-characters` is checked by our validator; its 422 names the character
 * and its position.
 */
export function NoControlCharacters<T extends TString>(schema: T): T {
  return Annotated(schema, { 'x-no-control-characters': true });
}

/** Positive integer ids, never reused. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/**
 * A price: a finite JSON number, ≥ 0, below 1 000 000 000, with at most 4 decimal places.
 * `x-decimal-places` is checked by our validator (JSON Schema's `multipleOf` is unreliable on
 * binary floating point).
 */
export const Price = Type.Number({ minimum: 0, exclusiveMaximum: 1_000_000_000, 'x-decimal-places': 4, examples: [7.25] });

/**
 * `Price` as text (a CSV cell): digits, then a point and at most its decimal places, below its
 * maximum, no sign, exponent or grouping. Derived from the schema, so a file and a JSON body
 * take the same prices; `rule` says it in a message.
 */
export const PRICE_TEXT = decimalText(Price);

function decimalText(schema: TNumber): { pattern: RegExp; rule: string } {
  const places: unknown = schema['x-decimal-places'];
  const below = schema.exclusiveMaximum ?? NaN;
  const digits = Math.log10(below);
  if (schema.minimum !== 0 || !Number.isInteger(digits) || digits < 1 || typeof places !== 'number' || !Number.isInteger(places)) {
    throw new Error('a decimal as text needs minimum 0, a power of ten as exclusiveMaximum and whole x-decimal-places');
  }
  return {
    pattern: new RegExp(`^(0|[1-9]\\d{0,${digits - 1}})(\\.\\d{1,${places}})?$`),
    rule: `digits with at most ${places} decimals after a point, below ${below}`,
  };
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });

/**
 * `type: [T, "null"]` rather than anyOf, so validation errors stay one per field; a union (no
 * `type` of its own) gets `null` as one more member.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, anyOf } = schema as { type?: unknown; anyOf?: unknown[] };
  if (type === undefined && Array.isArray(anyOf)) return Type.Unsafe<Static<T> | null>({ ...schema, anyOf: [...anyOf, { type: 'null' }] });
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

/** A malformed id names no record: 404, not 400. */
export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });

/** count / offset of every list, plus fields; `embed` is added by the lists that have embeds. */
export const PageQuery = {
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Records to return, 1–100' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Records to skip' })),
  fields: Type.Optional(Type.String({ description: 'Comma-separated top-level fields to return' })),
};

export const FieldsQuery = {
  fields: PageQuery.fields,
};

/** The query of a list that has only `count`, `offset` and `fields`. */
export const PageOnlyQuery = Type.Object(PageQuery, { title: 'PageOptions', additionalProperties: false });
/** The query of a single-object GET that has only `fields`. */
export const FieldsOnlyQuery = Type.Object(FieldsQuery, { title: 'FieldsOptions', additionalProperties: false });

export function EmbedQuery(names: readonly string[]) {
  return Type.Optional(Type.String({ description: `Comma-separated related objects to add: ${names.join(', ')}` }));
}

/** `{"count": N}` of the `/count` endpoints. */
export const CountResponse = Type.Object({ count: Type.Integer({ minimum: 0 }) }, { title: 'CountResult', additionalProperties: false });

/** A request body object: unknown fields are errors, never dropped. */
/** `examples`: bodies the OpenAPI document shows (the first also makes the suites' records of the resource: test/support/create-examples.ts). */
export function StrictObject<T extends TProperties>(
  properties: T,
  options: { $id?: string; title?: string; description?: string; examples?: Static<TObject<T>>[] } = {},
): TObject<T> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** Every property optional, for PUT (partial update); at least one must be sent. */
export function PartialStrictObject<T extends TProperties>(object: TObject<T>, options: { title?: string } = {}) {
  return Type.Partial(object, { ...options, additionalProperties: false, minProperties: 1 });
}

/** Units of one SKU in one order or quote line. */
export const MAX_LINE_QUANTITY = 1_000_000;

export const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY, description: `Units, a JSON integer 1–${MAX_LINE_QUANTITY}` });

/**
 * What a trade price or a price list entry adds to a price: a quantity break and a validity
 * window. Left out, they mean "from 1 unit, always" (the interface's four-field item).
 */
export const PriceRuleInput = {
  minQuantity: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY, default: 1, description: 'Applies to lines of at least this many units; default 1' }),
  ),
  validFrom: Type.Optional(Nullable({ ...Timestamp, description: 'Applies from this moment on (inclusive); null or left out: always has' })),
  validUntil: Type.Optional(Nullable({ ...Timestamp, description: 'Applies until this moment (exclusive); null or left out: never ends. After validFrom' })),
};

/** The same fields as every record answers them. */
export const PriceRuleFields = {
  minQuantity: Type.Integer({ minimum: 1, description: 'Applies to lines of at least this many units' }),
  validFrom: Nullable({ ...Timestamp, description: 'Applies from this moment on (inclusive); null: always has' }),
  validUntil: Nullable({ ...Timestamp, description: 'Applies until this moment (exclusive); null: never ends' }),
};

/** A moment for a query parameter (`validAt`, `at`). */
export const MomentQuery = (description: string) => Type.Optional(Annotated(Timestamp, { description: `${description}; ISO 8601 with a time zone` }));
