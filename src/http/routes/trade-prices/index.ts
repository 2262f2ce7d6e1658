import type { PricingService } from '../../../modules/pricing/pricing-service.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import type { App } from '../../plugins/app-types.js';
import { bulkCreateTradePrices } from './bulk-create-trade-prices.js';
import { countTradePrices } from './count-trade-prices.js';
import { deleteTradePrice } from './delete-trade-price.js';
import type { TradePriceEmbedder } from './embed-trade-prices.js';
import { getEffectivePrice } from './get-effective-price.js';
import { getTradePrice } from './get-trade-price.js';
import { listTradePrices } from './list-trade-prices.js';
import { replaceTradePrices } from './replace-trade-prices.js';

export function registerTradePriceRoutes(app: App, tradePrices: TradePriceService, pricing: PricingService, embedder: TradePriceEmbedder): void {
  bulkCreateTradePrices(app, tradePrices);
  replaceTradePrices(app, tradePrices);
  listTradePrices(app, tradePrices, embedder);
  countTradePrices(app, tradePrices);
  getEffectivePrice(app, pricing);
  getTradePrice(app, tradePrices, embedder);
  deleteTradePrice(app, tradePrices);
}
