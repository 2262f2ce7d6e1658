import { Type } from '@sinclair/typebox';
import { FieldsQuery, IdParams } from '../../../contract/common.js';
import { Customer } from '../../../contract/customers.js';
import type { CustomerService } from '../../../modules/customers/customer-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { readErrors } from '../docs.js';

export function getCustomer(app: App, customers: CustomerService): void {
  app.get(
    '/v1/customers/:id',
    {
      schema: {
        tags: ['customers'],
        summary: 'Get a customer',
        params: IdParams,
        querystring: Type.Object(FieldsQuery, { additionalProperties: false }),
        response: { 200: Customer, ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => customers.get(storeIdOf(request), request.params.id),
  );
}
