import type { HistoryService } from '../../../modules/history/history-service.js';
import type { App } from '../../plugins/app-types.js';
import { countPriceHistory } from './count-price-history.js';
import { getPriceHistoryHead } from './get-price-history-head.js';
import { listPriceHistory } from './list-price-history.js';

export function registerPriceHistoryRoutes(app: App, history: HistoryService): void {
  listPriceHistory(app, history);
  countPriceHistory(app, history);
  getPriceHistoryHead(app, history);
}
