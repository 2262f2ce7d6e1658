import { Type } from '@sinclair/typebox';
import { BulkTradePriceRequest, TradePrice, type TradePriceInput } from '../../../contract/trade-prices.js';
import { AppError, MAX_REPORTED_PROBLEMS } from '../../../modules/errors.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { createErrors } from '../docs.js';

export function bulkCreateTradePrices(app: App, tradePrices: TradePriceService): void {
  app.post(
    '/v1/trade-customer-product-prices/bulk',
    {
      schema: {
        tags: ['trade prices'],
        summary: 'Create 1–1000 trade prices, all or none',
        description:
          'Only creates: never checks, replaces, removes or de-duplicates existing records. A 422 lists every invalid item with its `index` and `field`.',
        body: BulkTradePriceRequest,
        response: { 201: Type.Array(TradePrice), ...createErrors },
      },
      config: { scope: 'trade_prices:write' },
      // Items the schema refuses are reported together with those the store refuses.
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeError = request.validationError;
      const shapeProblems = shapeError instanceof AppError ? (shapeError.problems ?? []) : [];
      if (shapeError !== undefined && (!(shapeError instanceof AppError) || shapeProblems.some((problem) => problem.index === undefined))) {
        // The body as a whole is wrong (not an array, empty, too long): nothing to check item by item.
        throw shapeError instanceof AppError ? new AppError('validation_failed', `Invalid JSON structure: ${describeRoot(shapeProblems)}`, shapeProblems.filter((p) => p.index === undefined)) : shapeError;
      }
      // A report cut at its limit no longer names every refused item: the unnamed ones must not
      // reach the store checks, which trust the shape of what they are given.
      if (shapeError instanceof AppError && shapeProblems.length >= MAX_REPORTED_PROBLEMS) throw shapeError;
      const items = request.body as TradePriceInput[];
      return reply.sendCreated(() => tradePrices.bulkCreate(storeIdOf(request), items, shapeProblems));
    },
  );
}

function describeRoot(problems: readonly { index?: number; message: string }[]): string {
  const root = problems.find((problem) => problem.index === undefined);
  return root === undefined ? 'the body must be an array of 1 to 1000 objects' : `the body ${root.message}`;
}
