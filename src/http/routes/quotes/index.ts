import type { PricingService } from '../../../modules/pricing/pricing-service.js';
import type { App } from '../../plugins/app-types.js';
import { createQuote } from './create-quote.js';

export function registerQuoteRoutes(app: App, pricing: PricingService): void {
  createQuote(app, pricing);
}
