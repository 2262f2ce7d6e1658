import type { HistoryService } from '../../../modules/history/history-service.js';
import type { App } from '../../app-types.js';
import { countPriceHistory } from './count-price-history.js';
import { listPriceHistory } from './list-price-history.js';

export function registerPriceHistoryRoutes(app: App, history: HistoryService): void {
  listPriceHistory(app, history);
  countPriceHistory(app, history);
}
