import { IdParams } from '../../../contract/common.js';
import type { CustomerGroupService } from '../../../modules/customer-groups/customer-group-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deleteCustomerGroup(app: App, groups: CustomerGroupService): void {
  app.delete(
    '/v1/customer-groups/:id',
    {
      schema: {
        operationId: 'customerGroups.delete',
        tags: ['customer groups'],
        summary: 'Delete a customer group; its customers belong to none',
        description:
          'Events: `customer.updated` for each customer of the group (its `customerGroupId` becomes null), then `customer_group.deleted`. Its price lists stay.',
        params: IdParams,
        response: { 204: NoContent, ...readErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'always' },
    },
    async (request, reply) => {
      await groups.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
