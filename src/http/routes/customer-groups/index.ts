import type { CustomerGroupService } from '../../../modules/customer-groups/customer-group-service.js';
import type { App } from '../../plugins/app-types.js';
import { countCustomerGroups } from './count-customer-groups.js';
import { createCustomerGroup } from './create-customer-group.js';
import { deleteCustomerGroup } from './delete-customer-group.js';
import { getCustomerGroup } from './get-customer-group.js';
import { listCustomerGroups } from './list-customer-groups.js';
import { updateCustomerGroup } from './update-customer-group.js';

export function registerCustomerGroupRoutes(app: App, groups: CustomerGroupService): void {
  for (const register of [listCustomerGroups, countCustomerGroups, getCustomerGroup, createCustomerGroup, updateCustomerGroup, deleteCustomerGroup])
    register(app, groups);
}
