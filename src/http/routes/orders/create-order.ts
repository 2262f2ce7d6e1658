import { Order, OrderInput } from '../../../contract/orders.js';
import { AppError, type FieldProblem, MAX_REPORTED_PROBLEMS } from '../../../modules/errors.js';
import type { OrderService } from '../../../modules/orders/order-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { createErrors } from '../docs.js';

export function createOrder(app: App, orders: OrderService): void {
  app.post(
    '/v1/orders',
    {
      schema: {
        tags: ['orders'],
        summary: 'Place an order priced at the customer’s effective prices',
        description:
          'Each line is priced at the customer’s effective price at placing time (the newest trade price of a trade customer, else the variation’s price, else the product’s) and the prices are kept with the order. ' +
          'A 422 lists every problem: a line’s with its `index` and `field`, the order’s without `index`. ' +
          'Refused: an unknown or inactive customer, an unknown SKU, a SKU of an inactive product, a SKU already on an earlier line, a line total or order total of 100 000 000 000 or more.',
        body: OrderInput,
        response: { 201: Order, ...createErrors },
      },
      config: { scope: 'orders:write' },
      // Lines the schema refuses are reported together with those the store refuses.
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = orderShapeProblems(request.validationError);
      return reply.sendCreated(() => orders.create(storeIdOf(request), request.body, shapeProblems));
    },
  );
}

const LINE_PATH = /^lines\[(\d+)\](?:\.(.+))?$/;

/**
 * The schema's problems with a line's position as `index` and its own field (`lines[2].sku`
 * becomes index 2, field `sku`). A body that is not an object, or a report already full, is
 * answered at once: there is nothing more to check.
 */
function orderShapeProblems(error: Error | undefined): FieldProblem[] {
  if (error === undefined) return [];
  if (!(error instanceof AppError) || error.problems === undefined) throw error;
  if (error.problems.length >= MAX_REPORTED_PROBLEMS || error.problems.some((problem) => problem.field === null)) throw error;
  return error.problems.map((problem) => {
    const line = LINE_PATH.exec(problem.field ?? '');
    return line === null ? problem : { index: Number(line[1]), field: line[2] ?? null, message: problem.message };
  });
}
