import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';

// ajv-formats is CommonJS with a default export; under NodeNext its type is the module object.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

/**
 * Every JSON answer a suite's test server gives is checked against the schema the OpenAPI
 * document names for its operation and status: a field a route answers that its schema forgot
 * (the contract's records are `additionalProperties: false`), a required one it left out, a
 * value of another type, or a status the operation does not document fails the request that
 * received it, naming the operation and what differs. A client generated from the document
 * would otherwise meet a shape it was never told of.
 *
 * Answers to a `fields=` projection leave out fields by design: of them, only what is present is
 * checked (no field the schema does not list, each of its type).
 */
export type AnswerCheck = (method: string, url: string, status: number, contentType: string | undefined, body: unknown) => void;

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

const DOCUMENT_ID = 'pricebook-openapi.json';

/**
 * What any route may answer though no operation lists it: a failure of the server's own (500,
 * code 1) and an instance shutting down (503), in the contract's error body.
 */
const ANY_ROUTE = new Set([500, 503]);
const ERROR_RESPONSE = { content: { 'application/json': { schema: {} } } };

/** A JSON pointer's segment, escaped for a URI fragment. */
function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'));
}

/** A schema with every `required` list emptied: what a `fields=` projection's answer must meet. */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      // The keyword (a list of names), not a property that happens to be called `required`.
      .filter(([key, value]) => key !== 'required' || !Array.isArray(value))
      .map(([key, value]) => [key, withoutRequired(value)]),
  );
}

interface Template {
  path: string;
  pattern: RegExp;
  /** Literal segments first: `/v1/skus/lookup` before `/v1/skus/{sku}`. */
  parameters: number;
}

/** The check of the last document seen: the servers of one suite (and of one run) serve the same one. */
let last: { text: string; check: AnswerCheck } | undefined;

/** The check of the document an app serves (`app.swagger()`), compiled once for equal documents. */
export function answerCheckOf(app: { swagger(): unknown }): AnswerCheck {
  const document = app.swagger();
  const text = JSON.stringify(document);
  if (last?.text !== text) last = { text, check: answerCheck(document as OpenApiDocument) };
  return last.check;
}

export function answerCheck(document: OpenApiDocument): AnswerCheck {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document as object, DOCUMENT_ID);
  const projected = new Ajv({ strict: false, allErrors: true });
  addFormats(projected);
  projected.addSchema(withoutRequired(document) as object, DOCUMENT_ID);

  const templates: Template[] = Object.keys(document.paths)
    .map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      parameters: (path.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.parameters - b.parameters);

  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (which: Ajv, key: string, pointer: string): ValidateFunction => {
    let validate = validators.get(key);
    if (validate === undefined) {
      validate = which.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      validators.set(key, validate);
    }
    return validate;
  };

  return (method, url, status, contentType, body) => {
    const { pathname, searchParams } = new URL(url, 'https://answer.check');
    const template = templates.find((candidate) => candidate.pattern.test(pathname));
    const lower = method.toLowerCase();
    const operation = template === undefined ? undefined : document.paths[template.path]?.[lower];
    // Routes the document hides (the docs' pages, `/openapi.json`, the admin page) and a path no
    // route has (its 404 is the contract's error, checked by the suites that send one).
    if (template === undefined || operation === undefined) return;
    const name = `${method} ${template.path} → ${status}`;
    const response = operation.responses?.[String(status)] ?? (ANY_ROUTE.has(status) ? ERROR_RESPONSE : undefined);
    if (response === undefined) throw new Error(`answer of ${name}: the OpenAPI document lists no ${status} for this operation`);
    if (contentType === undefined || !contentType.startsWith('application/json')) return;
    if (response.content?.['application/json']?.schema === undefined) throw new Error(`answer of ${name}: JSON the OpenAPI document does not describe`);
    const isProjected = searchParams.has('fields');
    const pointer =
      response === ERROR_RESPONSE
        ? '/components/schemas/Error'
        : ['', 'paths', template.path, lower, 'responses', String(status), 'content', 'application/json', 'schema'].map(pointerSegment).join('/');
    const validate = validatorOf(isProjected ? projected : ajv, `${isProjected ? 'fields ' : ''}${name}`, pointer);
    if (validate(body)) return;
    const problems = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (error) =>
          `${error.instancePath || '(the body)'} ${error.message ?? ''}${error.keyword === 'additionalProperties' ? `: ${String(error.params.additionalProperty)}` : ''}`,
      );
    throw new Error(`answer of ${name} does not match its schema in the OpenAPI document: ${problems.join('; ')}`);
  };
}
