import { IdParams } from '../../../contract/common.js';
import { CustomerGroup, CustomerGroupUpdate } from '../../../contract/customer-groups.js';
import type { CustomerGroupService } from '../../../modules/customer-groups/customer-group-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { writeErrors } from '../docs.js';

export function updateCustomerGroup(app: App, groups: CustomerGroupService): void {
  app.put(
    '/v1/customer-groups/:id',
    {
      schema: {
        operationId: 'customerGroups.update',
        tags: ['customer groups'],
        summary: 'Rename a customer group or replace its price lists',
        description: '`priceListIds`, when sent, replaces the group’s lists (in order): what every customer of the group pays can change.',
        params: IdParams,
        body: CustomerGroupUpdate,
        response: { 200: CustomerGroup, ...writeErrors },
      },
      config: {
        scope: ['trade_prices:write', 'trade_prices:read'],
        priceChange: { whenSent: ['priceListIds', 'policy'] satisfies Array<keyof CustomerGroupUpdate> },
      },
    },
    async (request) => groups.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );
}
