import { Customer, CustomerInput } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, requireScope, storeIdOf } from '../../app-types.js';
import { createErrors } from '../docs.js';

export function createCustomer(app: App, customers: CustomerService): void {
  app.post(
    '/v1/customers',
    {
      schema: {
        tags: ['customers'],
        summary: 'Create a customer',
        description: '`priceListIds` (the customer’s price lists, in order) needs the scope `trade_prices:write` as well.',
        body: CustomerInput,
        response: { 201: Customer, ...createErrors },
      },
      config: { scope: 'catalog:write' },
    },
    async (request, reply) => {
      if (request.body.priceListIds !== undefined) requireScope(request, 'trade_prices:write', 'setting priceListIds');
      return reply.sendCreated(() => customers.create(storeIdOf(request), request.body));
    },
  );
}
