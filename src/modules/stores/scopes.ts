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
  'trade_prices:direct',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * Given only when asked for: `trade_prices:approve` approves others' change sets, and
 * `trade_prices:direct` changes prices directly where the store requires approval
 * (docs/change-sets.md, "Approval"): each lets its holder past the four-eyes rule, so none has
 * it by chance.
 */
export const ASKED_FOR_SCOPES: readonly Scope[] = ['trade_prices:approve', 'trade_prices:direct'];

/** What a new credential gets unless told otherwise: every scope but those given only when asked for. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => !ASKED_FOR_SCOPES.includes(scope));

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
