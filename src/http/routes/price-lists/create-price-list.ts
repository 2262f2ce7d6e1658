import { PriceList, PriceListInput } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createPriceList(app: App, priceLists: PriceListService): void {
  app.post(
    '/v1/price-lists',
    {
      schema: {
        operationId: 'priceLists.create',
        tags: ['price lists'],
        summary: 'Create a price list',
        description:
          "A `fixed` list prices SKUs by its entries (`/v1/price-lists/{id}/prices/bulk`); a `percentage` list takes `percentage` % off every catalog price, rounded to the store's currency (or by the list's own `rounding`). " +
          "A `lowest` list (`policy`) takes no turn among the customer's lists and is paid where it is lower. " +
          'Customers name their lists in order (`priceListIds`); the first that prices a SKU wins. See docs/pricing.md.',
        body: PriceListInput,
        response: { 201: PriceList, ...createErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'never' },
    },
    async (request, reply) => reply.sendCreated(() => priceLists.create(storeIdOf(request), originOf(request), request.body)),
  );
}
