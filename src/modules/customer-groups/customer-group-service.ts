import { type CustomerGroup, type CustomerGroupInput, type CustomerGroupUpdate, MAX_CUSTOMER_GROUPS } from '../../contract/customer-groups.js';
import type { Customer } from '../../contract/customers.js';
import { deleteInBatches } from '../shared/batched-delete.js';
import { isoTimestamp } from '../shared/clock.js';
import { found, invalidField, notFound } from '../shared/errors.js';
import { eventOf, updateEventOf } from '../events/events.js';
import { customerGroupChanged, customerGroupRecord } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { assertPriceListsExist } from '../price-lists/assert-price-lists.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { CustomerGroupFilter } from './customer-group-repository.js';
import { StoreRecordsService } from '../shared/store-records-service.js';

/**
 * Customer groups (docs/pricing.md, "Customer groups"): a name and ordered price lists that
 * apply to every customer of the group after the customer's own. A customer belongs to at
 * most one (`customerGroupId`). The history records a group's lists, so an as-of price reads
 * the group's lists then.
 */
export class CustomerGroupService extends StoreRecordsService<CustomerGroup, CustomerGroupFilter> {
  protected records(repos: Repositories) {
    return repos.customerGroups;
  }

  async get(storeId: number, id: number): Promise<CustomerGroup> {
    return found(await this.uow.repos.customerGroups.find(storeId, id), `Customer group ${id}`);
  }

  create(storeId: number, origin: ChangeOrigin, input: CustomerGroupInput): Promise<CustomerGroup> {
    const priceListIds = input.priceListIds ?? [];
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      if ((await repos.customerGroups.count(storeId, {})) >= MAX_CUSTOMER_GROUPS) {
        throw invalidField(null, `A store has at most ${MAX_CUSTOMER_GROUPS} customer groups: delete one, or put its customers in another`);
      }
      await assertPriceListsExist(repos, storeId, priceListIds);
      const createdAt = isoTimestamp(this.clock);
      const created = await repos.customerGroups.insert(storeId, { name: input.name, priceListIds, policy: input.policy ?? 'first' }, createdAt);
      await repos.events.append([eventOf(storeId, 'customer_group.created', created)], createdAt);
      await repos.history.append(storeId, createdAt, origin, [customerGroupRecord(null, created)]);
      return created;
    });
  }

  /** Changes the name or the policy, or replaces the lists; the event carries the group as it was (`previous`). */
  update(storeId: number, origin: ChangeOrigin, id: number, patch: CustomerGroupUpdate): Promise<CustomerGroup> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const current = found(await repos.customerGroups.find(storeId, id), `Customer group ${id}`);
      if (patch.priceListIds !== undefined) await assertPriceListsExist(repos, storeId, patch.priceListIds);
      const updated = found(
        await repos.customerGroups.update(storeId, id, {
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.priceListIds !== undefined && { priceListIds: patch.priceListIds }),
          ...(patch.policy !== undefined && { policy: patch.policy }),
        }),
        `Customer group ${id}`,
      );
      const changedAt = isoTimestamp(this.clock);
      await repos.events.append([updateEventOf(storeId, 'customer_group.updated', current, updated)], changedAt);
      if (customerGroupChanged(current, updated)) await repos.history.append(storeId, changedAt, origin, [customerGroupRecord(current, updated)]);
      return updated;
    });
  }

  /**
   * Deletes the group in one transaction: its customers leave it in bounded batches (a
   * `customer.updated` event each), then the group goes (`customer_group.deleted`). The history
   * records the group's deletion, not each customer's change: a group that did not exist at a
   * moment prices no one then, as a deleted list (docs/history.md).
   */
  remove(storeId: number, origin: ChangeOrigin, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const group = found(await repos.customerGroups.find(storeId, id), `Customer group ${id}`);
      const deletedAt = isoTimestamp(this.clock);
      await deleteInBatches(
        async (afterId, limit) => {
          const before = await repos.customers.findMany(storeId, await repos.customers.inGroupBatch(storeId, id, afterId, limit));
          await repos.customers.leaveGroup(
            storeId,
            id,
            before.map((customer) => customer.id),
          );
          return before.sort((a, b) => a.id - b.id);
        },
        async (batch) => {
          const events = batch.map((previous) => {
            const customer: Customer = { ...previous, customerGroupId: null };
            return updateEventOf(storeId, 'customer.updated', previous, customer);
          });
          await repos.events.append(events, deletedAt);
        },
      );
      if (!(await repos.customerGroups.delete(storeId, id))) throw notFound(`Customer group ${id}`);
      await repos.events.append([eventOf(storeId, 'customer_group.deleted', group)], deletedAt);
      await repos.history.append(storeId, deletedAt, origin, [customerGroupRecord(group, null)]);
    });
  }
}
