import type { CATEGORY_EMBEDS } from '../../contract/categories.js';
import type { TRADE_PRICE_EMBEDS } from '../../contract/trade-prices.js';
import type { Scope } from '../../modules/stores/scopes.js';

/**
 * The scope each object `embed=` may add needs: an embedded object is a read of its own
 * resource, so it needs that resource's read scope besides the route's (docs/scopes.md).
 */
export const TRADE_PRICE_EMBED_SCOPES: Readonly<Record<(typeof TRADE_PRICE_EMBEDS)[number], Scope>> = {
  customer: 'catalog:read',
  product: 'catalog:read',
};

/** A category's ancestors are categories: the route's own scope reads them. */
export const CATEGORY_EMBED_SCOPES: Readonly<Record<(typeof CATEGORY_EMBEDS)[number], Scope>> = {
  parents: 'catalog:read',
};
