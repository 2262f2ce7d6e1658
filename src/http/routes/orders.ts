import { Order, OrderCountQuery, OrderGetQuery, OrderInput, OrderListQuery } from '../../contract/orders.js';
import type { OrderService } from '../../modules/orders/order-service.js';
import { type App, pageOf, storeIdOf } from '../plugins/app-types.js';
import { itemShapeProblems } from '../plugins/bulk-shape-problems.js';
import { countOptions, createOptions, getOptions, itemPath, listOptions, type Resource } from './resource-routes.js';

const ORDERS: Resource = { path: '/v1/orders', tag: 'orders', one: 'an order', many: 'orders' };

/** `/v1/orders`: orders are placed and read, never changed: no PUT or DELETE (405 with `Allow`). */
export function registerOrderRoutes(app: App, orders: OrderService): void {
  const read = { scope: 'orders:read', record: Order } as const;

  app.get(
    ORDERS.path,
    listOptions(ORDERS, { ...read, summary: 'List orders (of one customer with customerId=)', querystring: OrderListQuery }),
    async (request) => orders.list(storeIdOf(request), { customerId: request.query.customerId }, pageOf(request.query)),
  );

  app.get(`${ORDERS.path}/count`, countOptions(ORDERS, { scope: 'orders:read', querystring: OrderCountQuery }), async (request) => ({
    count: await orders.count(storeIdOf(request), { customerId: request.query.customerId }),
  }));

  app.get(itemPath(ORDERS), getOptions(ORDERS, { ...read, querystring: OrderGetQuery }), async (request) => orders.get(storeIdOf(request), request.params.id));

  app.post(
    ORDERS.path,
    {
      ...createOptions(ORDERS, {
        scope: ['orders:write', 'orders:read'],
        priceChange: 'never',
        summary: 'Place an order priced at the customer’s effective prices',
        description:
          'Each line is priced by the resolution rule at its quantity and the placing time (the customer’s trade prices, then their price lists, then the variation’s price, then the product’s; docs/pricing.md), and the prices are kept with the order, each line with the `source` and ids of its price. ' +
          'A 422 lists every problem: a line’s with its `index` and `field`, the order’s without `index`. ' +
          'Refused: an unknown or inactive customer, an unknown SKU, a SKU of an inactive product, a SKU already on an earlier line, a line total or order total of 100 000 000 000 or more.',
        body: OrderInput,
        record: Order,
      }),
      // Lines the schema refuses are reported together with those the store refuses.
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = itemShapeProblems(request.validationError, 'lines');
      return reply.sendCreated(() => orders.create(storeIdOf(request), request.body, shapeProblems));
    },
  );
}
