import type { Clock } from '../../src/modules/shared/clock.js';
import { canonicalJson } from '../../src/modules/history/history-chain.js';
import type { HistoryRecord } from '../../src/modules/history/history-entry.js';
import type { StatefulResource } from '../../src/modules/pricing/as-of-repository.js';
import type { TestServer } from './test-server.js';

/** The moment the server believes it is, set by the test: every change gets a moment of its own. */
export class StepClock implements Clock {
  constructor(public moment: number) {}
  now(): number {
    return this.moment;
  }
  /** Moves on by `ms` and answers the new moment as a canonical timestamp. */
  step(ms = 1000): string {
    this.moment += ms;
    return new Date(this.moment).toISOString();
  }
}

/**
 * Makes sure the history holds a change of a customer, list, product or variation just made
 * through the API at `at`: when the writer did not record it (a build whose writers record
 * nothing yet), it is appended as the writer would, so an as-of read sees it either way. A
 * change already recorded (the record's state at `at` is `after`) is left alone.
 */
export async function ensureRecorded(
  server: TestServer,
  storeId: number,
  at: string,
  change: { resource: StatefulResource; id: number; change: HistoryRecord['change']; before: object | null; after: object | null },
): Promise<void> {
  const repos = server.services.uow.repos;
  const state = (await repos.pricingAsOf.statesAt(storeId, change.resource, [change.id], at)).get(change.id);
  if (state !== undefined && canonicalJson(state) === canonicalJson(change.after)) return;
  const record = change.after ?? change.before ?? {};
  const field = (name: string) => (name in record ? (record as Record<string, unknown>)[name] : undefined);
  const numberOr = (value: unknown) => (typeof value === 'number' ? value : null);
  await server.services.uow.transaction(async (inner) => {
    await inner.history.lockChain(storeId);
    await inner.history.append(storeId, at, { actor: { type: 'key', id: 0, name: 'test' }, source: 'api', sourceId: null, requestId: null }, [
      {
        resource: change.resource,
        resourceId: change.id,
        change: change.change,
        before: change.before,
        after: change.after,
        customerId: change.resource === 'customer' ? change.id : null,
        productId: change.resource === 'product' ? change.id : numberOr(field('productId')),
        priceListId: change.resource === 'price_list' ? change.id : null,
        sku: typeof field('sku') === 'string' ? (field('sku') as string) : null,
      },
    ]);
  });
}
