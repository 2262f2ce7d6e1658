import { Type } from '@sinclair/typebox';
import { Customer, CustomerListQuery } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listCustomers(app: App, customers: CustomerService): void {
  app.get(
    '/v1/customers',
    {
      schema: {
        operationId: 'customers.list',
        tags: ['customers'],
        summary: 'List customers',
        querystring: CustomerListQuery,
        response: { 200: Type.Array(Customer), ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) =>
      customers.list(
        storeIdOf(request),
        { email: request.query.email, trade: request.query.trade, priceListId: request.query.priceListId, customerGroupId: request.query.customerGroupId },
        pageOf(request.query),
      ),
  );
}
