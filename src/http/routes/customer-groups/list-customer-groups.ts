import { Type } from '@sinclair/typebox';
import { CustomerGroup, CustomerGroupListQuery } from '../../../contract/customer-groups.js';
import type { CustomerGroupService } from '../../../modules/customer-groups/customer-group-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listCustomerGroups(app: App, groups: CustomerGroupService): void {
  app.get(
    '/v1/customer-groups',
    {
      schema: {
        operationId: 'customerGroups.list',
        tags: ['customer groups'],
        summary: 'List customer groups',
        querystring: CustomerGroupListQuery,
        response: { 200: Type.Array(CustomerGroup), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => groups.list(storeIdOf(request), { priceListId: request.query.priceListId }, pageOf(request.query)),
  );
}
