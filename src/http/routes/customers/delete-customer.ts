import { IdParams } from '../../../contract/common.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deleteCustomer(app: App, customers: CustomerService): void {
  app.delete(
    '/v1/customers/:id',
    {
      schema: {
        operationId: 'customers.delete',
        tags: ['customers'],
        summary: 'Delete a customer and its trade prices',
        params: IdParams,
        response: { 204: NoContent, ...readErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'never' },
    },
    async (request, reply) => {
      await customers.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
