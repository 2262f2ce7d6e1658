import type { PricedSkuInput } from '@pricebook/client/browser';
import type { ReplaceTradePricesRequest, TradePrice } from '../../contract/trade-prices.js';
import { collect } from '../collect.js';
import { priceInputOf } from '../price-input.js';
import type { ViewContext } from '../view.js';

/**
 * The replace that changes one price and no other: scope `skus` for its SKU, naming every other
 * price of that SKU as it is and this one as `next` (sent as typed: the API judges it); `index`
 * is the changed one's place, where the API's problems name it.
 */
export async function replaceOnePrice(
  context: ViewContext,
  customerId: number,
  record: TradePrice,
  next: unknown,
): Promise<{ index: number; request: ReplaceTradePricesRequest }> {
  const sameSku = await collect(context.api.tradePrices.iterate({ customerId, sku: record.sku }));
  let index = sameSku.findIndex((candidate) => candidate.id === record.id);
  if (index === -1) index = sameSku.length;
  const prices: unknown[] = sameSku.map(priceInputOf);
  prices[index] = next;
  return { index, request: { customerId, scope: 'skus', prices: prices as PricedSkuInput[], dryRun: false } };
}
