import { CountResponse } from '../../../contract/common.js';
import { CustomerCountQuery } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countCustomers(app: App, customers: CustomerService): void {
  app.get(
    '/v1/customers/count',
    {
      schema: {
        operationId: 'customers.count',
        tags: ['customers'],
        summary: 'Count customers',
        querystring: CustomerCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => ({
      count: await customers.count(storeIdOf(request), {
        email: request.query.email,
        trade: request.query.trade,
        priceListId: request.query.priceListId,
        customerGroupId: request.query.customerGroupId,
      }),
    }),
  );
}
