import type { TObject, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isWelcomePageRequest } from './public-paths.js';
import { invalidQuery, parseIdParams, parseQuery } from './strict-params.js';
import './route-config.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** `fields=` and `embed=` of this request, checked against the route's resource. */
    projection: Projection | undefined;
  }
}

export interface Projection {
  /** Top-level fields to keep; undefined keeps all. */
  fields: ReadonlySet<string> | undefined;
  embeds: ReadonlySet<string>;
}

/**
 * Parses path ids (a malformed id names no record: 404), then the query string (400 code 9),
 * before the body is validated (422): the order of the contract. Then applies `fields=` and
 * `embed=` (the projection) to the answer.
 */
export function registerParamsAndProjection(app: FastifyInstance): void {
  app.decorateRequest('projection', undefined);
  // Both hooks are synchronous (a throw is the request's error, as from an async hook).
  app.addHook('preValidation', (request, _reply, done) => {
    projectRequest(request);
    done();
  });

  app.addHook('preSerialization', (request, reply, payload: unknown, done) => {
    done(null, projected(request, reply, payload));
  });
}

/** Path ids and the query string parsed, and `fields=`/`embed=` kept as the request's projection. */
function projectRequest(request: FastifyRequest): void {
  // A browser's `GET /` may carry any query (a link's `?utm_source=…`): the page takes none.
  if (request.is404 || isWelcomePageRequest(request)) return;
  request.params = parseIdParams(request.params as Record<string, unknown>);
  const schema = request.routeOptions.schema;
  const query = parseQuery(schema?.querystring as TObject | undefined, request.query as Record<string, unknown>);
  request.query = query;
  const fields = query.fields as string | undefined;
  const embed = query.embed as string | undefined;
  if (fields === undefined && embed === undefined) return;
  const allowedEmbeds = Object.keys(request.routeOptions.config.embeds ?? {});
  const embeds = parseList('embed', embed, new Set(allowedEmbeds));
  const known = new Set([...resourceFields(schema?.response as Record<string, TSchema> | undefined), ...allowedEmbeds]);
  request.projection = { fields: fields === undefined ? undefined : parseList('fields', fields, known), embeds };
}

/** The answer with only the fields `fields=` names (and the embedded objects), when it names any. */
function projected(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const fields = request.projection?.fields;
  if (fields === undefined || reply.statusCode >= 300) return payload;
  const embeds = request.projection?.embeds ?? new Set<string>();
  const pick = (item: unknown) => {
    if (typeof item !== 'object' || item === null) return item;
    return Object.fromEntries(Object.entries(item).filter(([key]) => fields.has(key) || embeds.has(key)));
  };
  return Array.isArray(payload) ? payload.map(pick) : pick(payload);
}

function parseList(name: string, value: string | undefined, known: ReadonlySet<string>): ReadonlySet<string> {
  if (value === undefined) return new Set();
  const names = value.split(',').map((part) => part.trim());
  for (const item of names) {
    if (!known.has(item)) {
      const choices = known.size === 0 ? 'this endpoint has none' : `known: ${[...known].join(', ')}`;
      throw invalidQuery(name, `unknown name '${item.slice(0, 64)}' (${choices})`);
    }
  }
  return new Set(names);
}

/** The top-level fields of the route's 200 response (the items' fields for a list). */
function resourceFields(responses: Record<string, TSchema> | undefined): string[] {
  const ok = (responses?.['200'] ?? responses?.['201']) as (TObject & { items?: TObject }) | undefined;
  const object = (ok as { type?: string } | undefined)?.type === 'array' ? ok?.items : ok;
  return object?.properties === undefined ? [] : Object.keys(object.properties);
}
