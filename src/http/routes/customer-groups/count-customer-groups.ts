import { CountResponse } from '../../../contract/common.js';
import { CustomerGroupCountQuery } from '../../../contract/customer-groups.js';
import type { CustomerGroupService } from '../../../modules/customer-groups/customer-group-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countCustomerGroups(app: App, groups: CustomerGroupService): void {
  app.get(
    '/v1/customer-groups/count',
    {
      schema: {
        operationId: 'customerGroups.count',
        tags: ['customer groups'],
        summary: 'Count customer groups',
        querystring: CustomerGroupCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => ({ count: await groups.count(storeIdOf(request), { priceListId: request.query.priceListId }) }),
  );
}
