import { CountResponse } from '../../../contract/common.js';
import { OrderCountQuery } from '../../../contract/orders.js';
import type { OrderService } from '../../../modules/orders/order-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countOrders(app: App, orders: OrderService): void {
  app.get(
    '/v1/orders/count',
    {
      schema: {
        operationId: 'orders.count',
        tags: ['orders'],
        summary: 'Count orders',
        querystring: OrderCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'orders:read' },
    },
    async (request) => ({ count: await orders.count(storeIdOf(request), { customerId: request.query.customerId }) }),
  );
}
