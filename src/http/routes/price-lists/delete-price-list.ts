import { IdParams } from '../../../contract/common.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deletePriceList(app: App, priceLists: PriceListService): void {
  app.delete(
    '/v1/price-lists/:id',
    {
      schema: {
        operationId: 'priceLists.delete',
        tags: ['price lists'],
        summary: 'Delete a price list, its entries, and its place in customers’ and groups’ lists',
        description:
          'Events: `price_list_price.deleted` for each entry, `customer.updated` for each customer that had the list, `customer_group.updated` for each group that had it, then `price_list.deleted`.',
        params: IdParams,
        response: { 204: NoContent, ...readErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'always' },
    },
    async (request, reply) => {
      await priceLists.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
