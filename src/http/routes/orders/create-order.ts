import { Order, OrderInput } from '../../../contract/orders.js';
import type { OrderService } from '../../../modules/orders/order-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { itemShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { createErrors } from '../docs.js';

export function createOrder(app: App, orders: OrderService): void {
  app.post(
    '/v1/orders',
    {
      schema: {
        operationId: 'orders.create',
        tags: ['orders'],
        summary: 'Place an order priced at the customer’s effective prices',
        description:
          'Each line is priced by the resolution rule at its quantity and the placing time (the customer’s trade prices, then their price lists, then the variation’s price, then the product’s; docs/pricing.md), and the prices are kept with the order, each line with the `source` and ids of its price. ' +
          'A 422 lists every problem: a line’s with its `index` and `field`, the order’s without `index`. ' +
          'Refused: an unknown or inactive customer, an unknown SKU, a SKU of an inactive product, a SKU already on an earlier line, a line total or order total of 100 000 000 000 or more.',
        body: OrderInput,
        response: { 201: Order, ...createErrors },
      },
      config: { scope: ['orders:write', 'orders:read'], priceChange: 'never' },
      // Lines the schema refuses are reported together with those the store refuses.
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = itemShapeProblems(request.validationError, 'lines');
      return reply.sendCreated(() => orders.create(storeIdOf(request), request.body, shapeProblems));
    },
  );
}
