import fc from 'fast-check';
import type { JsonSchema, Operation } from './openapi-operations.js';

/** Values the generators pick from so that some requests name real records, of either store. */
export interface Pools {
  ids: readonly number[];
  skus: readonly string[];
  /** Authorization header values, each with its weight. */
  credentials: ReadonlyArray<{ weight: number; value: string | undefined }>;
}

/** One hostile request. */
export interface FuzzCase {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** What kind of body it carries (for the report). */
  bodyKind: string;
}

/** null mostly; now and then a value. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const deep = (levels: number, open: string, inner: string, close: string) => open.repeat(levels) + inner + close.repeat(levels);

/** Values of the wrong type, out of range, or meant to break something, for any position. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0.00001, 1e308, -1e308, 5e-324, 2 ** 53, 2 ** 53 + 2, 1e21, 123.45678, 999_999_999.99999),
  fc.constantFrom<unknown>(
    '',
    ' ',
    '1',
    '0x10',
    '1e3',
    'true',
    'null',
    [],
    {},
    [1],
    { a: 1 },
    [[[]]],
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff\ud800',
    '\u202e',
    '𝕏😀',
    'é'.normalize('NFD'),
  ),
  fc.constantFrom<unknown>(
    "' OR 1=1 --",
    'x"); DROP TABLE customers; --',
    '%s%n%x',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    '{{7*7}}',
  ),
  fc.constantFrom(254, 255, 256, 2049).map((length) => 'x'.repeat(length)),
  fc.constantFrom(10_000, 100_000).map((length) => 'y'.repeat(length)),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Bodies no valid request has: broken syntax, deep nesting, prototype keys, duplicate keys, not UTF-8. */
const hostileText: fc.Arbitrary<string | Buffer> = fc.constantFrom<string | Buffer>(
  '',
  ' \n',
  'null',
  '0',
  '"x"',
  '[]',
  '{}',
  '{',
  '[1,',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '/* comment */ {}',
  'NaN',
  '1e999',
  '-1e999',
  '123456789012345678901234567890',
  deep(33, '[', '', ']'),
  deep(10_000, '[', '', ']'),
  deep(33, '{"a":', '1', '}'),
  deep(5000, '{"a":', '1', '}'),
  '[' + '['.repeat(40),
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '[{"__proto__":null}]',
  '{"\\u005f_proto__":{}}',
  '{"constr\\u0075ctor":1}',
  '{"email":"dup@example.com","email":"dup2@example.com"}',
  '[{"customerId":1,"customerId":"1","productId":1,"sku":"A","price":1}]',
  '"\\ud800"',
  '{"title":"\\u0000"}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
  Buffer.from([0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d]),
  Buffer.from([0xff, 0xfe, 0x00]),
  Buffer.from('{"title":"utf16"}', 'utf16le'),
);

/** A value the schema accepts (given the right store), from the pools where names say ids or SKUs. */
function valid(schema: JsonSchema, name: string, pools: Pools): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf !== undefined && schema.anyOf.length > 0) return fc.oneof(...schema.anyOf.map((option) => valid(option, name, pools)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  return fc.oneof(...types.map((type) => ofType(type, schema, name, pools)));
}

function ofType(type: string, schema: JsonSchema, name: string, pools: Pools): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      const required = schema.required ?? [];
      const record = fc.record(Object.fromEntries(properties.map(([key, property]) => [key, shaped(property, key, pools)])), { requiredKeys: required });
      // Sometimes a required field is missing, or an unknown one is added.
      return fc
        .tuple(
          record,
          rarely(fc.constantFrom(...(required.length > 0 ? required : ['none'])), 8),
          rarely(fc.tuple(fc.constantFrom('extra', 'ID', 'Email', ' sku', 'toString', 'hasOwnProperty'), hostileValue), 8),
        )
        .map(([value, drop, extra]) => {
          const copy = Object.fromEntries(Object.entries(value).filter(([key]) => key !== drop));
          if (extra !== null) copy[extra[0]] = extra[1];
          return copy;
        });
    }
    case 'array':
      return fc.array(shaped(schema.items ?? {}, name, pools), { minLength: Math.min(schema.minItems ?? 0, 3), maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'integer':
      if (/(^id|Id|Ids)$/.test(name)) return fc.constantFrom(...pools.ids);
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'number':
      // Prices: at most 4 decimals, as integer ten-thousandths.
      return fc.integer({ min: 0, max: 10_000_000 }).map((units) => units / 10_000);
    case 'string':
      if (name === 'sku') return fc.oneof(fc.constantFrom(...pools.skus), fc.stringMatching(/^[A-Z]{1,6}-[0-9]{1,3}$/));
      if (name === 'email') return fc.emailAddress();
      if (name === 'url') {
        return fc.constantFrom(
          'https://hooks.example.com/fuzz',
          'https://10.0.0.1/x',
          'http://127.0.0.1:1/x',
          'https://169.254.169.254/latest',
          'https://[::1]/',
          'ftp://example.com/',
          'javascript:alert(1)',
          'https://example.com:99999/',
          'https://user:pass@example.com/',
          'not a url',
        );
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 16, 16) });
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constant(null);
  }
}

/** Mostly valid, sometimes hostile, at every level of the body. */
function shaped(schema: JsonSchema, name: string, pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 10, arbitrary: valid(schema, name, pools) }, { weight: 1, arbitrary: hostileValue });
}

const PLACEHOLDER = '\u0000items\u0000';

/** 10 000 items where the schema has an array (the body or one of its fields), or a body over 1 MiB. */
function oversized(schema: JsonSchema, pools: Pools): fc.Arbitrary<string> {
  const arrayField = Object.entries(schema.properties ?? {}).find(([, property]) => property.type === 'array');
  const item = schema.type === 'array' ? schema.items : arrayField?.[1].items;
  return fc.tuple(valid(item ?? {}, arrayField?.[0] ?? 'item', pools), valid(schema, 'body', pools), fc.boolean()).map(([sample, base, overLimit]) => {
    if (overLimit) return JSON.stringify({ ...(base as object), padding: 'z'.repeat(1_100_000) });
    // Small items (a hostile sample may be a 100 000-character string): the count is the point.
    const text = JSON.stringify(sample) ?? 'null';
    const items = `[${Array.from({ length: 10_000 }, () => (text.length > 200 ? '{}' : text)).join(',')}]`;
    if (schema.type === 'array' || arrayField === undefined) return items;
    return JSON.stringify({ ...(base as object), [arrayField[0]]: PLACEHOLDER }).replace(JSON.stringify(PLACEHOLDER), items);
  });
}

/** A JSON text with its first key given twice (JSON.parse keeps the second). */
const duplicateFirstKey = (json: string) => json.replace(/^\{"([^"]*)":/, (match, key: string) => `{"${key}":"first",${match.slice(1)}`);

function bodyFor(operation: Operation, pools: Pools): fc.Arbitrary<{ body: string | Buffer | undefined; kind: string }> {
  const as = (kind: string) => (body: string | Buffer | undefined) => ({ body, kind });
  const random = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null');
  if (operation.body === undefined) {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined).map(as('none')) },
      { weight: 1, arbitrary: random.map(as('random JSON')) },
      { weight: 1, arbitrary: hostileText.map(as('hostile text')) },
    );
  }
  const shapedBody = shaped(operation.body, 'body', pools).map((value) => JSON.stringify(value) ?? 'null');
  return fc.oneof(
    { weight: 12, arbitrary: shapedBody.map(as('schema-shaped')) },
    { weight: 2, arbitrary: shapedBody.map(duplicateFirstKey).map(as('duplicate keys')) },
    { weight: 3, arbitrary: random.map(as('random JSON')) },
    { weight: 4, arbitrary: hostileText.map(as('hostile text')) },
    { weight: 1, arbitrary: oversized(operation.body, pools).map(as('oversized')) },
    { weight: 1, arbitrary: fc.constant(undefined).map(as('none')) },
  );
}

/** A path parameter: a real id of either store, or something that is no id at all. */
function idSegment(pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...pools.ids).map(String) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '0x1',
        '00001',
        '9007199254740993',
        '99999999999999999999999',
        'abc',
        '%00',
        '%ff',
        '%C0%AF',
        '..',
        '%2e%2e',
        'null',
        '__proto__',
        'constructor',
        '%20',
        '1%2F2',
        '1;2',
        'x'.repeat(250),
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
  );
}

function pathFor(operation: Operation, pools: Pools): fc.Arbitrary<string> {
  const holes = operation.template.match(/\{[^}]+\}/g) ?? [];
  const filled = fc
    .tuple(...holes.map(() => idSegment(pools)))
    .map((ids) => ids.reduce<string>((path, id) => path.replace(/\{[^}]+\}/, id), operation.template));
  const twisted = fc.tuple(filled, fc.constantFrom('/', '//', '/x', '/..', '/%2e%2e/%2e%2e', '.json', '%00', '?')).map(([path, suffix]) => path + suffix);
  const elsewhere = fc.constantFrom(
    '/',
    '/v1',
    '/v1/',
    '/v2/customers',
    '/V1/customers',
    '//v1/customers',
    '/v1//customers',
    '/v1/customers/../products',
    '/v1/%ff',
    '/healthz/x',
    '/openapi.json/x',
    '/v1/' + 'a/'.repeat(200),
  );
  return fc.oneof({ weight: 20, arbitrary: filled }, { weight: 1, arbitrary: twisted }, { weight: 1, arbitrary: elsewhere });
}

const HOSTILE_QUERY_VALUES = [
  '',
  '-1',
  '0',
  '101',
  '1e2',
  '0x10',
  '9'.repeat(30),
  '1.5',
  'true',
  'id,id',
  'id,,sku',
  ',',
  '%ff',
  '%00',
  '%E2%80%AE',
  'x'.repeat(5000),
  'customer,product,parents,nope',
];

function queryFor(operation: Operation, pools: Pools): fc.Arbitrary<string> {
  const names = [
    ...operation.query.map((parameter) => parameter.name),
    'count',
    'offset',
    'fields',
    'embed',
    '__proto__',
    'constructor',
    'toString',
    'a[b]',
    'x'.repeat(300),
  ];
  const valueFor = (name: string) => {
    const schema = operation.query.find((parameter) => parameter.name === name)?.schema ?? { type: 'string' };
    return fc.oneof(
      { weight: 6, arbitrary: valid(schema, name, pools).map((value) => encodeURIComponent(String(value))) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_QUERY_VALUES) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map(encodeURIComponent) },
    );
  };
  const known = operation.query.map((parameter) => parameter.name);
  const name =
    known.length === 0
      ? fc.constantFrom(...names)
      : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.constantFrom(...names) });
  const pair = name.chain((key) => valueFor(key).map((value) => `${encodeURIComponent(key)}=${value}`));
  // Operations without query parameters get one now and then (every one is an error there).
  const pairs = fc.oneof(
    { weight: known.length === 0 ? 7 : 2, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(pair, { minLength: 1, maxLength: 3 }) },
  );
  return pairs.map((list) => (list.length === 0 ? '' : `?${list.join('&')}`));
}

function headersFor(pools: Pools, hasBody: boolean): fc.Arbitrary<Record<string, string>> {
  const authorization = fc.oneof(...pools.credentials.map(({ weight, value }) => ({ weight, arbitrary: fc.constant(value) })));
  const contentType = fc.oneof(
    { weight: hasBody ? 12 : 1, arbitrary: fc.constant('application/json') },
    { weight: hasBody ? 1 : 8, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'APPLICATION/JSON',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json, text/plain',
        '',
        'application/jsonx',
        'multipart/form-data; boundary=x',
      ),
    },
  );
  const idempotencyKey = fc.oneof(
    { weight: 8, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2') },
    { weight: 1, arbitrary: fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), fc.constantFrom('', 'k'.repeat(256), 'clé', ' ')) },
  );
  const extra = rarely(
    fc.constantFrom<[string, string]>(
      ['x-forwarded-proto', 'http'],
      ['forwarded', 'proto=http'],
      ['content-encoding', 'gzip'],
      ['x-http-method-override', 'DELETE'],
      ['accept', 'text/html'],
      ['accept-charset', 'latin1'],
      ['x-rate-limit-remaining', '999'],
    ),
    4,
  );
  return fc
    .record({ authorization, contentType, idempotencyKey, extra })
    .map(({ authorization: auth, contentType: type, idempotencyKey: key, extra: more }) => {
      const headers: Record<string, string> = {};
      if (auth !== undefined) headers.authorization = auth;
      if (type !== undefined) headers['content-type'] = type;
      if (key !== undefined) headers['idempotency-key'] = key;
      if (more !== null) headers[more[0]] = more[1];
      return headers;
    });
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

/** A request to one of `operations`, mostly well aimed and a little wrong, sometimes wholly wrong. */
export function fuzzCase(operations: readonly Operation[], pools: Pools): fc.Arbitrary<FuzzCase> {
  // Built once per operation, not per case.
  const perOperation = operations.map((operation) =>
    fc
      .record({
        method: fc.oneof({ weight: 9, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) }),
        path: pathFor(operation, pools),
        query: queryFor(operation, pools),
        body: bodyFor(operation, pools),
        headers: headersFor(pools, operation.body !== undefined),
      })
      .map(({ method, path, query, body, headers }) => ({ method, url: path + query, headers, body: body.body, bodyKind: body.kind })),
  );
  return fc.oneof(...perOperation);
}
