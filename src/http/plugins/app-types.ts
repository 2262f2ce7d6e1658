import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import type { ChangeOrigin } from '../../modules/history/history-entry.js';
import type { ImportUploader } from '../../modules/imports/import-repository.js';
import type { Page } from '../../modules/shared/page.js';
import type { Principal, StaffSessionState } from '../../modules/stores/credential-service.js';
import type { Scope } from '../../modules/stores/scopes.js';

/** The Fastify instance routes are registered on: TypeBox schemas give the handlers their types. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** The authenticated caller. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === undefined) throw new AppError('unauthenticated', 'Missing or invalid credentials');
  return request.principal;
}

/** The staff session the request was made with; a request with an API key has none (401). */
export function staffSessionOf(request: FastifyRequest): { principal: Principal; session: StaffSessionState } {
  const principal = principalOf(request);
  if (principal.session === undefined)
    throw new AppError('unauthenticated', 'No staff session: this request carries an API key; staff sign in with POST /v1/session');
  return { principal, session: principal.session };
}

/**
 * 403 (code 4) unless the caller also has `scope`: for a part of a body that needs more than
 * its route's own scope (`because` says which part).
 */
export function requireScope(request: FastifyRequest, scope: Scope, because: string): void {
  if (!principalOf(request).scopes.has(scope)) throw new AppError('forbidden', `This credential lacks the scope '${scope}' that ${because} needs`);
}

/**
 * `requireScope` for a field of the body, as a route's `preValidation` hook: the body is parsed
 * but not yet validated, so a credential lacking the scope gets 403 whatever else is wrong with
 * the body (the contract checks the scope before validating: 403 before 422).
 */
export function requireScopeForField(request: FastifyRequest, field: string, scope: Scope): void {
  const body: unknown = request.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, field)) requireScope(request, scope, `setting ${field}`);
}

/** The store of the authenticated caller. */
export function storeIdOf(request: FastifyRequest): number {
  return principalOf(request).storeId;
}

/**
 * Who makes the request's changes and how, for the price history: a key's request is `api`,
 * a staff member's (signed in on the admin page) `admin`; the request id is Fastify's.
 */
export function originOf(request: FastifyRequest): ChangeOrigin {
  const { actor } = principalOf(request);
  return { actor, source: actor.type === 'staff' ? 'admin' : 'api', sourceId: null, requestId: request.id };
}

/** The uploader of an import, kept with it: its apply, later, is recorded as theirs. */
export function uploaderOf(request: FastifyRequest): ImportUploader {
  return { actor: principalOf(request).actor, requestId: request.id };
}

/** `count` and `offset` (defaults already applied by the query parser). */
export function pageOf(query: { count?: number; offset?: number }): Page {
  return { count: query.count ?? 50, offset: query.offset ?? 0 };
}

/** Whether `embed=` asked for a related object. */
export function embeds(request: FastifyRequest, name: string): boolean {
  return request.projection?.embeds.has(name) ?? false;
}
