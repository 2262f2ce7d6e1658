/**
 * Why a customer cannot be given or charged a price, or undefined when it can: one that is not
 * the store's, one that is not a trade customer (where `trade` is asked for), or an inactive
 * one (where `active` is). `name` says how the request named it: `Customer 12`,
 * `Customer 'buyer@example.com'`.
 */
export function customerProblem(
  name: string,
  customer: { trade: boolean; active?: boolean } | undefined,
  need: { trade: boolean; active?: boolean },
): string | undefined {
  if (customer === undefined) return `${name} does not exist in this store`;
  if (need.trade && !customer.trade) return `${name} is not a trade customer`;
  if (need.active === true && customer.active === false) return `${name} is inactive`;
  return undefined;
}
