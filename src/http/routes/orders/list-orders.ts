import { Type } from '@sinclair/typebox';
import { Order, OrderListQuery } from '../../../contract/orders.js';
import type { OrderService } from '../../../modules/orders/order-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listOrders(app: App, orders: OrderService): void {
  app.get(
    '/v1/orders',
    {
      schema: {
        operationId: 'orders.list',
        tags: ['orders'],
        summary: 'List orders (of one customer with customerId=)',
        querystring: OrderListQuery,
        response: { 200: Type.Array(Order), ...readErrors },
      },
      config: { scope: 'orders:read' },
    },
    async (request) => orders.list(storeIdOf(request), { customerId: request.query.customerId }, pageOf(request.query)),
  );
}
