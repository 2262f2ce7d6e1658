import { Customer, CustomerInput, PRICING_FIELDS } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, requireScopeForField, originOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createCustomer(app: App, customers: CustomerService): void {
  app.post(
    '/v1/customers',
    {
      schema: {
        operationId: 'customers.create',
        tags: ['customers'],
        summary: 'Create a customer',
        description: '`priceListIds` (the customer’s price lists, in order) and `customerGroupId` (its group) need the scope `trade_prices:write` as well.',
        body: CustomerInput,
        response: { 201: Customer, ...createErrors },
      },
      config: { scope: 'catalog:write', priceChange: { whenSent: PRICING_FIELDS } },
      preValidation: async (request) => {
        for (const field of PRICING_FIELDS) requireScopeForField(request, field, 'trade_prices:write');
      },
    },
    async (request, reply) => reply.sendCreated(() => customers.create(storeIdOf(request), originOf(request), request.body)),
  );
}
