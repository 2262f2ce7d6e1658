import type { OrderService } from '../../../modules/orders/order-service.js';
import type { App } from '../../plugins/app-types.js';
import { countOrders } from './count-orders.js';
import { createOrder } from './create-order.js';
import { getOrder } from './get-order.js';
import { listOrders } from './list-orders.js';

/** Orders are placed and read, never changed: no PUT or DELETE (405 with `Allow`). */
export function registerOrderRoutes(app: App, orders: OrderService): void {
  for (const register of [listOrders, countOrders, getOrder, createOrder]) register(app, orders);
}
