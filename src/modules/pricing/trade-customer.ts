/**
 * Why a customer cannot be given or charged a price, or undefined when it can: one that is not
 * the store's, or (where `trade` is asked for) one that is not a trade customer. `name` says
 * how the request named it: `Customer 12`, `Customer 'buyer@example.com'`.
 */
export function customerProblem(name: string, customer: { trade: boolean } | undefined, need: { trade: boolean }): string | undefined {
  if (customer === undefined) return `${name} does not exist in this store`;
  if (need.trade && !customer.trade) return `${name} is not a trade customer`;
  return undefined;
}
