import { Type } from '@sinclair/typebox';
import { FieldsOnlyQuery } from '../../contract/common.js';
import {
  BulkCustomerRequest,
  Customer,
  CustomerCountQuery,
  CustomerInput,
  CustomerListQuery,
  CustomerUpdate,
  MAX_BULK_CUSTOMERS,
  PRICING_FIELDS,
} from '../../contract/customers.js';
import type { CustomerService } from '../../modules/customers/customer-service.js';
import { type App, originOf, pageOf, requireScope, requireScopeForField, storeIdOf } from '../plugins/app-types.js';
import { bulkShapeProblems } from '../plugins/bulk-shape-problems.js';
import { createErrors, deleteErrors } from './docs.js';
import { countOptions, createOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource, updateOptions } from './resource-routes.js';

const CUSTOMERS: Resource = { path: '/v1/customers', tag: 'customers', one: 'a customer', many: 'customers' };

/** `/v1/customers`: every operation of the resource, in one file. */
export function registerCustomerRoutes(app: App, customers: CustomerService): void {
  const read = { scope: 'catalog:read', record: Customer } as const;
  // The pricing fields' scope before the body is validated (403 before 422).
  const pricingFieldsScope = async (request: Parameters<typeof requireScopeForField>[0]): Promise<void> => {
    for (const field of PRICING_FIELDS) requireScopeForField(request, field, 'trade_prices:write');
  };

  app.get(CUSTOMERS.path, listOptions(CUSTOMERS, { ...read, querystring: CustomerListQuery }), async (request) =>
    customers.list(
      storeIdOf(request),
      { email: request.query.email, trade: request.query.trade, priceListId: request.query.priceListId, customerGroupId: request.query.customerGroupId },
      pageOf(request.query),
    ),
  );

  app.get(`${CUSTOMERS.path}/count`, countOptions(CUSTOMERS, { scope: 'catalog:read', querystring: CustomerCountQuery }), async (request) => ({
    count: await customers.count(storeIdOf(request), {
      email: request.query.email,
      trade: request.query.trade,
      priceListId: request.query.priceListId,
      customerGroupId: request.query.customerGroupId,
    }),
  }));

  app.get(itemPath(CUSTOMERS), getOptions(CUSTOMERS, { ...read, querystring: FieldsOnlyQuery }), async (request) =>
    customers.get(storeIdOf(request), request.params.id),
  );

  app.post(
    CUSTOMERS.path,
    {
      ...createOptions(CUSTOMERS, {
        scope: 'catalog:write',
        priceChange: { whenSent: PRICING_FIELDS },
        description: '`priceListIds` (the customer’s price lists, in order) and `customerGroupId` (its group) need the scope `trade_prices:write` as well.',
        body: CustomerInput,
        record: Customer,
      }),
      preValidation: pricingFieldsScope,
    },
    async (request, reply) => reply.sendCreated(() => customers.create(storeIdOf(request), originOf(request), request.body)),
  );

  app.post(
    `${CUSTOMERS.path}/bulk`,
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

  app.put(
    itemPath(CUSTOMERS),
    {
      ...updateOptions(CUSTOMERS, {
        scope: ['catalog:write', 'catalog:read'],
        // A customer's trade flag decides whether its trade prices count; a new customer has none yet, so only a change of it is a price change.
        priceChange: { whenSent: [...PRICING_FIELDS, 'trade'] satisfies Array<keyof CustomerUpdate> },
        description:
          '`priceListIds`, when sent, replaces the customer’s price lists (in order); it and `customerGroupId` need the scope `trade_prices:write` as well.',
        body: CustomerUpdate,
        record: Customer,
      }),
      preValidation: pricingFieldsScope,
    },
    async (request) => customers.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );

  app.delete(
    itemPath(CUSTOMERS),
    deleteOptions(CUSTOMERS, { scope: 'catalog:write', priceChange: 'never', summary: 'Delete a customer and its trade prices', errors: deleteErrors }),
    async (request, reply) => {
      await customers.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
