import type { Caller, CreateOptions } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type {
  CountResult,
  CustomerGroup,
  CustomerGroupCountQuery,
  CustomerGroupGetQuery,
  CustomerGroupInput,
  CustomerGroupListQuery,
  CustomerGroupUpdate,
} from './types.js';

/** `/v1/customer-groups` (docs/pricing.md, "Customer groups"): price lists shared by every customer of a group, after each one's own. */
export class CustomerGroupsResource {
  constructor(private readonly api: Caller) {}

  list(query: CustomerGroupListQuery = {}): Promise<CustomerGroup[]> {
    return this.api.call('customerGroups.list', { query });
  }
  iterate(query: IterateQuery<CustomerGroupListQuery> = {}): AsyncGenerator<CustomerGroup, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: CustomerGroupCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('customerGroups.count', { query })).count;
  }
  get(id: number, query: CustomerGroupGetQuery = {}): Promise<CustomerGroup> {
    return this.api.call('customerGroups.get', { params: { id }, query });
  }
  create(group: CustomerGroupInput, options: CreateOptions = {}): Promise<CustomerGroup> {
    return this.api.call('customerGroups.create', { body: group, ...options });
  }
  /** `priceListIds`, when sent, replaces the group's lists. */
  update(id: number, changes: CustomerGroupUpdate): Promise<CustomerGroup> {
    return this.api.call('customerGroups.update', { params: { id }, body: changes });
  }
  /** Its customers then belong to no group. */
  async delete(id: number): Promise<void> {
    await this.api.call('customerGroups.delete', { params: { id } });
  }
}
