import { FieldsOnlyQuery, IdParams } from '../../../contract/common.js';
import { Customer } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getCustomer(app: App, customers: CustomerService): void {
  app.get(
    '/v1/customers/:id',
    {
      schema: {
        operationId: 'customers.get',
        tags: ['customers'],
        summary: 'Get a customer',
        params: IdParams,
        querystring: FieldsOnlyQuery,
        response: { 200: Customer, ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => customers.get(storeIdOf(request), request.params.id),
  );
}
