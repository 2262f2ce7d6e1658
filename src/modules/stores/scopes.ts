/** What a credential may do. */
export const SCOPES = [
  'trade_prices:read',
  'trade_prices:write',
  'catalog:read',
  'catalog:write',
  'orders:read',
  'orders:write',
  'webhooks',
  'trade_prices:approve',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * What a new credential gets unless told otherwise: every scope but `trade_prices:approve`,
 * which approves others' change sets (docs/change-sets.md) and is given only when asked for.
 */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== 'trade_prices:approve');

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
