import { type TSchema, Type } from '@sinclair/typebox';
import { CountResponse, IdParams } from '../../contract/common.js';
import type { Scope } from '../../modules/stores/scopes.js';
import type { PriceChange } from '../plugins/price-change.js';
import { createErrors, NoContent, readErrors, writeErrors } from './docs.js';

/**
 * The route options of a plain resource's operations (list, count, get, create, update,
 * delete), so that its route file writes only what differs: its schemas, scopes and handlers.
 * Each builder answers the `{ schema, config }` of `app.get(path, options, handler)`, so the
 * handler's request is typed from the schemas as when written out.
 */
export interface Resource<Parent extends TSchema | undefined = undefined, Item extends TSchema = typeof IdParams> {
  /** The collection's path: `/v1/categories`; one record is `${path}/:id`. */
  readonly path: string;
  /** The OpenAPI tag, also the first part of each `operationId` (`categories.list`) unless `operations` is given. */
  readonly tag: string;
  /** The first part of each `operationId` when it is not the tag: `customerGroups` (tag `customer groups`). */
  readonly operations?: string;
  /** The nouns of the summaries: `a category`, `categories`. */
  readonly one: string;
  readonly many: string;
  /** A nested resource's collection path parameters: the product's `id` of `/v1/products/:id/variations`. */
  readonly params?: Parent;
  /** One record's path segment and parameters, when not `:id` (`:variationId`, with the product's `id`). */
  readonly item?: { readonly segment: string; readonly params: Item };
}

type Scopes = Scope | readonly Scope[];
type Embeds = Readonly<Record<string, Scope>>;
type Errors = Readonly<Record<number, TSchema>>;

interface Common {
  readonly scope: Scopes;
  /** Instead of the operation's usual summary (`Update some fields of a category`). */
  readonly summary?: string;
  readonly description?: string;
}

/** Any resource, as the builders read it. */
type AnyResource = Resource<TSchema | undefined, TSchema>;

export function itemPath(resource: AnyResource): string {
  return `${resource.path}/${resource.item?.segment ?? ':id'}`;
}

/** The collection's path parameters, when it has any (a nested resource). */
function parentParams<P extends TSchema | undefined>(resource: Resource<P, TSchema>) {
  return (resource.params === undefined ? {} : { params: resource.params }) as P extends TSchema ? { params: P } : Record<never, never>;
}

/** One record's path parameters: `{ id }` unless the resource says otherwise. */
function itemParams<I extends TSchema>(resource: Resource<TSchema | undefined, I>): I {
  return (resource.item?.params ?? IdParams) as I;
}

function schemaHead(resource: AnyResource, operation: string, usual: string, options: Common) {
  const { summary = usual, description } = options;
  return {
    operationId: `${resource.operations ?? resource.tag}.${operation}`,
    tags: [resource.tag],
    summary,
    ...(description !== undefined && { description }),
  };
}

function readConfig(scope: Scopes, embeds: Embeds | undefined) {
  return { scope, ...(embeds !== undefined && { embeds }) };
}

export function listOptions<Q extends TSchema, R extends TSchema, P extends TSchema | undefined>(
  resource: Resource<P, TSchema>,
  options: Common & { readonly querystring: Q; readonly record: R; readonly embeds?: Embeds },
) {
  return {
    schema: {
      ...schemaHead(resource, 'list', `List ${resource.many}`, options),
      ...parentParams(resource),
      querystring: options.querystring,
      response: { 200: Type.Array(options.record), ...readErrors },
    },
    config: readConfig(options.scope, options.embeds),
  };
}

/** Without `querystring` when the count takes no filter: the schema then has none. */
export function countOptions<P extends TSchema | undefined>(resource: Resource<P, TSchema>, options: Common): ReturnType<typeof countHead<P>>;
export function countOptions<Q extends TSchema, P extends TSchema | undefined>(
  resource: Resource<P, TSchema>,
  options: Common & { readonly querystring: Q },
): ReturnType<typeof countHead<P>> & { schema: { querystring: Q } };
export function countOptions<Q extends TSchema, P extends TSchema | undefined>(resource: Resource<P, TSchema>, options: Common & { readonly querystring?: Q }) {
  const head = countHead(resource, options);
  if (options.querystring === undefined) return head;
  const { response, ...schema } = head.schema;
  return { schema: { ...schema, querystring: options.querystring, response }, config: head.config };
}

function countHead<P extends TSchema | undefined>(resource: Resource<P, TSchema>, options: Common) {
  return {
    schema: {
      ...schemaHead(resource, 'count', `Count ${resource.many}`, options),
      ...parentParams(resource),
      response: { 200: CountResponse, ...readErrors },
    },
    config: { scope: options.scope },
  };
}

export function getOptions<Q extends TSchema, R extends TSchema, I extends TSchema>(
  resource: Resource<TSchema | undefined, I>,
  options: Common & { readonly querystring: Q; readonly record: R; readonly embeds?: Embeds },
) {
  return {
    schema: {
      ...schemaHead(resource, 'get', `Get ${resource.one}`, options),
      params: itemParams(resource),
      querystring: options.querystring,
      response: { 200: options.record, ...readErrors },
    },
    config: readConfig(options.scope, options.embeds),
  };
}

export function createOptions<B extends TSchema, R extends TSchema, P extends TSchema | undefined>(
  resource: Resource<P, TSchema>,
  options: Common & { readonly body: B; readonly record: R; readonly priceChange: PriceChange },
) {
  return {
    schema: {
      ...schemaHead(resource, 'create', `Create ${resource.one}`, options),
      ...parentParams(resource),
      body: options.body,
      response: { 201: options.record, ...createErrors },
    },
    config: { scope: options.scope, priceChange: options.priceChange },
  };
}

/** `errors` are `writeErrors` unless given. */
export function updateOptions<B extends TSchema, R extends TSchema, I extends TSchema>(
  resource: Resource<TSchema | undefined, I>,
  options: Common & { readonly body: B; readonly record: R; readonly priceChange: PriceChange; readonly errors?: Errors },
) {
  return {
    schema: {
      ...schemaHead(resource, 'update', `Update some fields of ${resource.one}`, options),
      params: itemParams(resource),
      body: options.body,
      response: { 200: options.record, ...(options.errors ?? writeErrors) },
    },
    config: { scope: options.scope, priceChange: options.priceChange },
  };
}

/** A delete's summary says what else goes with the record; `errors` are `writeErrors` unless given. */
export function deleteOptions<I extends TSchema>(
  resource: Resource<TSchema | undefined, I>,
  options: Common & { readonly summary: string; readonly priceChange: PriceChange; readonly errors?: Errors },
) {
  return {
    schema: {
      ...schemaHead(resource, 'delete', options.summary, options),
      params: itemParams(resource),
      response: { 204: NoContent, ...(options.errors ?? writeErrors) },
    },
    config: { scope: options.scope, priceChange: options.priceChange },
  };
}
