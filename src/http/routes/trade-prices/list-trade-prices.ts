import { Type } from '@sinclair/typebox';
import { TradePriceListQuery, TradePriceWithEmbeds } from '../../../contract/trade-prices.js';
import type { TradePriceOrder } from '../../../modules/trade-prices/trade-price-repository.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { TRADE_PRICE_EMBED_SCOPES } from '../../plugins/embed-scopes.js';
import { readErrors } from '../docs.js';
import type { TradePriceEmbedder } from './embed-trade-prices.js';

export function listTradePrices(app: App, tradePrices: TradePriceService, embedder: TradePriceEmbedder): void {
  app.get(
    '/v1/trade-customer-product-prices',
    {
      schema: {
        operationId: 'tradePrices.list',
        tags: ['trade prices'],
        summary: 'List trade prices (of one customer with customerId=)',
        querystring: TradePriceListQuery,
        response: { 200: Type.Array(TradePriceWithEmbeds), ...readErrors },
      },
      config: { scope: 'trade_prices:read', embeds: TRADE_PRICE_EMBED_SCOPES },
    },
    async (request) => {
      const { customerId, productId, sku, skuContains, validAt, sort = 'id' } = request.query;
      const storeId = storeIdOf(request);
      const order = { field: sort.replace(/^-/, '') as TradePriceOrder['field'], descending: sort.startsWith('-') };
      const records = await tradePrices.list(storeId, { customerId, productId, sku, skuContains, validAt }, pageOf(request.query), order);
      return embedder.embed(request, storeId, records);
    },
  );
}
