import { IdParams } from '../../../contract/common.js';
import { CustomerGroup, CustomerGroupGetQuery } from '../../../contract/customer-groups.js';
import type { CustomerGroupService } from '../../../modules/customer-groups/customer-group-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getCustomerGroup(app: App, groups: CustomerGroupService): void {
  app.get(
    '/v1/customer-groups/:id',
    {
      schema: {
        operationId: 'customerGroups.get',
        tags: ['customer groups'],
        summary: 'Get a customer group',
        params: IdParams,
        querystring: CustomerGroupGetQuery,
        response: { 200: CustomerGroup, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => groups.get(storeIdOf(request), request.params.id),
  );
}
