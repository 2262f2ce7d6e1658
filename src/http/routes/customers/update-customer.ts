import { IdParams } from '../../../contract/common.js';
import { Customer, CustomerUpdate, PRICING_FIELDS } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, requireScopeForField, originOf, storeIdOf } from '../../plugins/app-types.js';
import { writeErrors } from '../docs.js';

export function updateCustomer(app: App, customers: CustomerService): void {
  app.put(
    '/v1/customers/:id',
    {
      schema: {
        operationId: 'customers.update',
        tags: ['customers'],
        summary: 'Update some fields of a customer',
        description:
          '`priceListIds`, when sent, replaces the customer’s price lists (in order); it and `customerGroupId` need the scope `trade_prices:write` as well.',
        params: IdParams,
        body: CustomerUpdate,
        response: { 200: Customer, ...writeErrors },
      },
      // A customer's trade flag decides whether its trade prices count; a new customer has none yet, so only a change of it is a price change.
      config: { scope: ['catalog:write', 'catalog:read'], priceChange: { whenSent: [...PRICING_FIELDS, 'trade'] satisfies Array<keyof CustomerUpdate> } },
      preValidation: async (request) => {
        for (const field of PRICING_FIELDS) requireScopeForField(request, field, 'trade_prices:write');
      },
    },
    async (request) => customers.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );
}
