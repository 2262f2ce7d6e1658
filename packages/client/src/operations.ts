import { OPERATIONS } from './api-operations.js';

export { type HttpMethod, OPERATIONS } from './api-operations.js';

export type OperationName = keyof typeof OPERATIONS;

/** Path parameters: `{id}`, `{variationId}`, `{priceId}`. */
export type PathParams = Readonly<Record<string, number>>;

/** The operation's path with its parameters filled in: `/v1/customers/{id}` → `/v1/customers/12`. */
export function operationPath(operation: OperationName, params: PathParams = {}): string {
  return OPERATIONS[operation].path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${operation}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** A query string from an options object: undefined values left out, `?` included when not empty. */
export function queryString(query: object | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    search.append(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
