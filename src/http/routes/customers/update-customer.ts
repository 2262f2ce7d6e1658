import { IdParams } from '../../../contract/common.js';
import { Customer, CustomerUpdate, PRICING_FIELDS } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, requireScopeForField, originOf, storeIdOf } from '../../app-types.js';
import { writeErrors } from '../docs.js';

export function updateCustomer(app: App, customers: CustomerService): void {
  app.put(
    '/v1/customers/:id',
    {
      schema: {
        tags: ['customers'],
        summary: 'Update some fields of a customer',
        description: '`priceListIds`, when sent, replaces the customer’s price lists (in order); it and `customerGroupId` need the scope `trade_prices:write` as well.',
        params: IdParams,
        body: CustomerUpdate,
        response: { 200: Customer, ...writeErrors },
      },
      config: { scope: ['catalog:write', 'catalog:read'] },
      preValidation: async (request) => {
        for (const field of PRICING_FIELDS) requireScopeForField(request, field, 'trade_prices:write');
      },
    },
    async (request) => customers.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );
}
