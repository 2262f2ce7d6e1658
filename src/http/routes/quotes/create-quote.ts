import { Quote, QuoteInput } from '../../../contract/quotes.js';
import type { PricingService } from '../../../modules/pricing/pricing-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { itemShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { writeErrors } from '../docs.js';

export function createQuote(app: App, pricing: PricingService): void {
  app.post(
    '/v1/quotes',
    {
      schema: {
        operationId: 'quotes.create',
        tags: ['quotes'],
        summary: 'Price a cart or a page of SKUs for a customer; nothing is stored',
        description:
          'Each line is priced by the resolution rule at its quantity and `at` (default now), exactly as an order placed then would be (docs/pricing.md), in a fixed number of queries for 1 or 1000 lines. ' +
          'A 422 lists every problem: an unknown customer, an unknown SKU (with the line’s `index`), a line total or total of 100 000 000 000 or more.',
        body: QuoteInput,
        response: { 200: Quote, ...writeErrors },
      },
      config: { scope: ['trade_prices:read', 'catalog:read'], priceChange: 'never' },
      attachValidation: true,
    },
    async (request) => pricing.quote(storeIdOf(request), request.body, itemShapeProblems(request.validationError, 'lines')),
  );
}
