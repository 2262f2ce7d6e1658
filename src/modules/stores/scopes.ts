/** What a credential may do. A new credential gets all of them unless told otherwise. */
export const SCOPES = [
  'trade_prices:read',
  'trade_prices:write',
  'catalog:read',
  'catalog:write',
  'orders:read',
  'orders:write',
  'webhooks',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
