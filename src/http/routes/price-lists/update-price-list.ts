import { IdParams } from '../../../contract/common.js';
import { PriceList, PriceListUpdate } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { writeErrors } from '../docs.js';

export function updatePriceList(app: App, priceLists: PriceListService): void {
  app.put(
    '/v1/price-lists/:id',
    {
      schema: {
        operationId: 'priceLists.update',
        tags: ['price lists'],
        summary: 'Rename a price list or change its percentage',
        description: 'The kind never changes (sending it is allowed only as it is).',
        params: IdParams,
        body: PriceListUpdate,
        response: { 200: PriceList, ...writeErrors },
      },
      config: {
        scope: ['trade_prices:write', 'trade_prices:read'],
        priceChange: { whenSent: ['percentage', 'policy', 'rounding'] satisfies Array<keyof PriceListUpdate> },
      },
    },
    async (request) => priceLists.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );
}
