import { Type } from '@sinclair/typebox';
import { BulkCustomerRequest, Customer, type CustomerInput, MAX_BULK_CUSTOMERS, PRICING_FIELDS } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, requireScope, originOf, storeIdOf } from '../../plugins/app-types.js';
import { bulkShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { createErrors } from '../docs.js';

export function bulkCreateCustomers(app: App, customers: CustomerService): void {
  app.post(
    '/v1/customers/bulk',
    {
      schema: {
        operationId: 'customers.createMany',
        tags: ['customers'],
        summary: `Create 1–${MAX_BULK_CUSTOMERS} customers, all or none`,
        description:
          'Each item is a customer as `POST /v1/customers` takes it. Every e-mail address must be unused in the store and sent once (ignoring case). ' +
          'A 422 lists every invalid item with its `index` and `field`; nothing is created. Answers the created customers in request order; each is a `customer.created` event. ' +
          'An item with `priceListIds` or `customerGroupId` needs the scope `trade_prices:write` as well.',
        body: BulkCustomerRequest,
        response: { 201: Type.Array(Customer), ...createErrors },
      },
      config: { scope: 'catalog:write', priceChange: { whenSent: PRICING_FIELDS } },
      // The field's scope before the body is validated (403 before 422), as the single create.
      preValidation: async (request) => {
        const body: unknown = request.body;
        for (const field of PRICING_FIELDS) {
          if (Array.isArray(body) && body.some((item) => typeof item === 'object' && item !== null && !Array.isArray(item) && Object.hasOwn(item, field))) {
            requireScope(request, 'trade_prices:write', `setting ${field}`);
          }
        }
      },
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = bulkShapeProblems(request.validationError);
      const items = request.body as CustomerInput[];
      return reply.sendCreated(() => customers.bulkCreate(storeIdOf(request), originOf(request), items, shapeProblems));
    },
  );
}
