import { CustomerGroup, CustomerGroupInput, MAX_CUSTOMER_GROUPS } from '../../../contract/customer-groups.js';
import type { CustomerGroupService } from '../../../modules/customer-groups/customer-group-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createCustomerGroup(app: App, groups: CustomerGroupService): void {
  app.post(
    '/v1/customer-groups',
    {
      schema: {
        operationId: 'customerGroups.create',
        tags: ['customer groups'],
        summary: 'Create a customer group',
        description:
          "A group's price lists (`priceListIds`, in order) apply to each of its customers after the customer's own lists. A customer joins with `customerGroupId`. " +
          `A store has at most ${MAX_CUSTOMER_GROUPS} groups. See docs/pricing.md, "Customer groups".`,
        body: CustomerGroupInput,
        response: { 201: CustomerGroup, ...createErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'never' },
    },
    async (request, reply) => reply.sendCreated(() => groups.create(storeIdOf(request), originOf(request), request.body)),
  );
}
