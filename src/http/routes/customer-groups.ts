import {
  CustomerGroup,
  CustomerGroupCountQuery,
  CustomerGroupGetQuery,
  CustomerGroupInput,
  CustomerGroupListQuery,
  CustomerGroupUpdate,
  MAX_CUSTOMER_GROUPS,
} from '../../contract/customer-groups.js';
import type { CustomerGroupService } from '../../modules/customer-groups/customer-group-service.js';
import { type App, originOf, pageOf, storeIdOf } from '../plugins/app-types.js';
import { deleteErrors } from './docs.js';
import { countOptions, createOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource, updateOptions } from './resource-routes.js';

const GROUPS: Resource = {
  path: '/v1/customer-groups',
  tag: 'customer groups',
  operations: 'customerGroups',
  one: 'a customer group',
  many: 'customer groups',
};

/** `/v1/customer-groups`: every operation of the resource, in one file. */
export function registerCustomerGroupRoutes(app: App, groups: CustomerGroupService): void {
  const read = { scope: 'trade_prices:read', record: CustomerGroup } as const;

  app.get(GROUPS.path, listOptions(GROUPS, { ...read, querystring: CustomerGroupListQuery }), async (request) =>
    groups.list(storeIdOf(request), { priceListId: request.query.priceListId }, pageOf(request.query)),
  );

  app.get(`${GROUPS.path}/count`, countOptions(GROUPS, { scope: 'trade_prices:read', querystring: CustomerGroupCountQuery }), async (request) => ({
    count: await groups.count(storeIdOf(request), { priceListId: request.query.priceListId }),
  }));

  app.get(itemPath(GROUPS), getOptions(GROUPS, { ...read, querystring: CustomerGroupGetQuery }), async (request) =>
    groups.get(storeIdOf(request), request.params.id),
  );

  app.post(
    GROUPS.path,
    createOptions(GROUPS, {
      scope: 'trade_prices:write',
      priceChange: 'never',
      description:
        "A group's price lists (`priceListIds`, in order) apply to each of its customers after the customer's own lists. A customer joins with `customerGroupId`. " +
        `A store has at most ${MAX_CUSTOMER_GROUPS} groups. See docs/pricing.md, "Customer groups".`,
      body: CustomerGroupInput,
      record: CustomerGroup,
    }),
    async (request, reply) => reply.sendCreated(() => groups.create(storeIdOf(request), originOf(request), request.body)),
  );

  app.put(
    itemPath(GROUPS),
    updateOptions(GROUPS, {
      scope: ['trade_prices:write', 'trade_prices:read'],
      priceChange: { whenSent: ['priceListIds', 'policy'] satisfies Array<keyof CustomerGroupUpdate> },
      summary: 'Rename a customer group or replace its price lists',
      description: '`priceListIds`, when sent, replaces the group’s lists (in order): what every customer of the group pays can change.',
      body: CustomerGroupUpdate,
      record: CustomerGroup,
    }),
    async (request) => groups.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );

  app.delete(
    itemPath(GROUPS),
    deleteOptions(GROUPS, {
      scope: 'trade_prices:write',
      priceChange: 'always',
      summary: 'Delete a customer group; its customers belong to none',
      description:
        'Events: `customer.updated` for each customer of the group (its `customerGroupId` becomes null), then `customer_group.deleted`. Its price lists stay.',
      errors: deleteErrors,
    }),
    async (request, reply) => {
      await groups.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
