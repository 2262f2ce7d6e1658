import type { FastifyRequest } from 'fastify';

/**
 * A part of a request that makes a price-changing route change nothing: a dry run (`dryRun`
 * true in the JSON body, or `dryRun=true` in the query), or an import into a change set
 * (`changeSet=`), whose rows only become the set's operations. Named as docs/scopes.md's
 * `with` column names them.
 */
export type LooksOnly = 'dryRun: true' | 'dryRun=true' | 'changeSet=';

/**
 * Whether a write changes what a customer pays (docs/change-sets.md, "Approval"), as each
 * POST, PUT and DELETE of the API declares it in its route's `config.priceChange`:
 * - `'never'`: it changes no price (or only a change set's draft, whose apply is approved);
 * - `'always'`: every request of it does;
 * - `{ whenSent }`: a JSON body that sends one of these fields does (any item of a bulk body),
 *   whatever its value, as a field's scope is needed when the field is sent;
 * - `{ unless }`: every request does but one that only looks or goes into a change set.
 */
export type PriceChange = 'never' | 'always' | { readonly whenSent: readonly string[] } | { readonly unless: readonly LooksOnly[] };

/** Whether this request, parsed (body and query) but not yet validated, changes what a customer pays. */
export function changesPrices(declared: PriceChange, request: FastifyRequest): boolean {
  if (declared === 'never' || declared === 'always') return declared === 'always';
  const body: unknown = request.body;
  if ('whenSent' in declared) {
    const items = Array.isArray(body) ? body : [body];
    return items.some((item) => isObject(item) && declared.whenSent.some((field) => Object.hasOwn(item, field)));
  }
  const query = request.query as Record<string, unknown>;
  return !declared.unless.some((part) => {
    switch (part) {
      case 'dryRun: true':
        return isObject(body) && body.dryRun === true;
      case 'dryRun=true':
        return query.dryRun === true;
      case 'changeSet=':
        return query.changeSet !== undefined;
    }
  });
}

/**
 * When the route is a price change, in words: `always`, "with `price` or `sku`", "unless
 * `dryRun: true`"; undefined for `'never'`. The OpenAPI document says it of each operation, and
 * docs/change-sets.md's table gives the same words (a test compares them).
 */
export function priceChangeCondition(declared: PriceChange): string | undefined {
  if (declared === 'never') return undefined;
  if (declared === 'always') return 'always';
  if ('whenSent' in declared) return `with ${alternatives(declared.whenSent)}`;
  return `unless ${alternatives(declared.unless)}`;
}

/** "`a`", "`a` or `b`", "`a`, `b` or `c`". */
function alternatives(parts: readonly string[]): string {
  const quoted = parts.map((part) => `\`${part}\``);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
