import type { CustomerService } from '../../../modules/customers/customer-service.js';
import type { App } from '../../plugins/app-types.js';
import { bulkCreateCustomers } from './bulk-create-customers.js';
import { countCustomers } from './count-customers.js';
import { createCustomer } from './create-customer.js';
import { deleteCustomer } from './delete-customer.js';
import { getCustomer } from './get-customer.js';
import { listCustomers } from './list-customers.js';
import { updateCustomer } from './update-customer.js';

export function registerCustomerRoutes(app: App, customers: CustomerService): void {
  for (const register of [listCustomers, countCustomers, getCustomer, createCustomer, bulkCreateCustomers, updateCustomer, deleteCustomer])
    register(app, customers);
}
