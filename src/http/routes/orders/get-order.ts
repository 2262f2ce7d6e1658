import { IdParams } from '../../../contract/common.js';
import { Order, OrderGetQuery } from '../../../contract/orders.js';
import type { OrderService } from '../../../modules/orders/order-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getOrder(app: App, orders: OrderService): void {
  app.get(
    '/v1/orders/:id',
    {
      schema: {
        operationId: 'orders.get',
        tags: ['orders'],
        summary: 'Get an order',
        params: IdParams,
        querystring: OrderGetQuery,
        response: { 200: Order, ...readErrors },
      },
      config: { scope: 'orders:read' },
    },
    async (request) => orders.get(storeIdOf(request), request.params.id),
  );
}
