import { IdParams } from '../../../contract/common.js';
import { TradePriceGetQuery, TradePriceWithEmbeds } from '../../../contract/trade-prices.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { TRADE_PRICE_EMBED_SCOPES } from '../../plugins/embed-scopes.js';
import { readErrors } from '../docs.js';
import type { TradePriceEmbedder } from './embed-trade-prices.js';

export function getTradePrice(app: App, tradePrices: TradePriceService, embedder: TradePriceEmbedder): void {
  app.get(
    '/v1/trade-customer-product-prices/:id',
    {
      schema: {
        operationId: 'tradePrices.get',
        tags: ['trade prices'],
        summary: 'Get a trade price',
        params: IdParams,
        querystring: TradePriceGetQuery,
        response: { 200: TradePriceWithEmbeds, ...readErrors },
      },
      config: { scope: 'trade_prices:read', embeds: TRADE_PRICE_EMBED_SCOPES },
    },
    async (request) => {
      const storeId = storeIdOf(request);
      const [record] = await embedder.embed(request, storeId, [await tradePrices.get(storeId, request.params.id)]);
      return record;
    },
  );
}
