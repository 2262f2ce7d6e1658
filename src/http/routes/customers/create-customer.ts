import { Customer, CustomerInput } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { createErrors } from '../docs.js';

export function createCustomer(app: App, customers: CustomerService): void {
  app.post(
    '/v1/customers',
    {
      schema: { tags: ['customers'], summary: 'Create a customer', body: CustomerInput, response: { 201: Customer, ...createErrors } },
      config: { scope: 'catalog:write' },
    },
    async (request, reply) => reply.sendCreated(() => customers.create(storeIdOf(request), request.body)),
  );
}
