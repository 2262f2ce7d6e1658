import type { Customer } from '../contract/customers.js';
import type { Product } from '../contract/products.js';
import { CLI_ORIGIN } from '../modules/history/change-records.js';
import type { Services } from './services.js';

export interface DemoStore {
  storeId: number;
  token: string;
  /** The store's owner, for the admin page: a one-time password, changed at the first sign-in. */
  staff: { email: string; initialPassword: string };
}

/** The demo owner's e-mail (`.example` is reserved: it reaches nobody). */
export const DEMO_OWNER_EMAIL = 'owner@demo.example';

/**
 * A demo store with trade and regular customers, so a first `curl` has something to show. No
 * request makes it: its price history names the fallback actor (`CLI_ORIGIN`, docs/history.md).
 */
export async function seedDemoStore(services: Services): Promise<DemoStore> {
  const store = await services.credentials.createStore('Demo store');
  const { token } = await services.credentials.issueKey(store.id);
  const { initialPassword } = await services.staff.create(store.id, { email: DEMO_OWNER_EMAIL, name: 'Demo owner', role: 'owner' });
  const customers = [
    { email: 'buyer@acme-trade.example', firstName: 'Ada', lastName: 'Stone', companyName: 'Acme Trade Ltd', trade: true },
    { email: 'orders@northwind.example', firstName: 'Nils', lastName: 'Berg', companyName: 'Northwind Supplies', trade: true },
    { email: 'jo@example.com', firstName: 'Jo', lastName: 'Public', trade: false },
  ];
  const created = [];
  for (const customer of customers) created.push(await services.customers.create(store.id, CLI_ORIGIN, customer));
  const products = await seedDemoCatalog(services, store.id);
  await seedDemoTradePrices(services, store.id, created, products);
  return { storeId: store.id, token, staff: { email: DEMO_OWNER_EMAIL, initialPassword } };
}

/** Workwear for trade buyers: two nested categories, products with and without variations. */
async function seedDemoCatalog(services: Services, storeId: number): Promise<Product[]> {
  const workwear = await services.categories.create(storeId, { title: 'Workwear' });
  const shirts = await services.categories.create(storeId, { title: 'T-shirts', parentId: workwear.id });
  const safety = await services.categories.create(storeId, { title: 'Safety', parentId: workwear.id });
  const products = [
    {
      title: 'Classic cotton T-shirt',
      price: 7.5,
      categoryIds: [shirts.id],
      variations: [
        { sku: 'TEE-RED-M', stock: 240 },
        { sku: 'TEE-RED-L', stock: 180 },
        { sku: 'TEE-BLUE-M', stock: 200 },
        { sku: 'TEE-BLUE-XL', price: 8.25, stock: 60 },
      ],
    },
    {
      title: 'Heavyweight hoodie',
      price: 24.9,
      categoryIds: [workwear.id],
      variations: [
        { sku: 'HOOD-GRY-M', stock: 45 },
        { sku: 'HOOD-GRY-L', stock: 38 },
        { sku: 'HOOD-GRY-XXL', price: 26.9, stock: 12 },
      ],
    },
    { title: 'Hi-vis vest, EN ISO 20471', sku: 'VEST-HV-YEL', price: 3.95, categoryIds: [safety.id] },
    { title: 'Nitrile gloves, box of 100', sku: 'GLOVE-NIT-100', price: 6.4, categoryIds: [safety.id] },
  ];
  const created = [];
  for (const product of products) created.push(await services.products.create(storeId, CLI_ORIGIN, product));
  return created;
}

/** The two trade customers' own prices for a few SKUs. */
async function seedDemoTradePrices(services: Services, storeId: number, customers: Customer[], products: Product[]): Promise<void> {
  const [ada, nils] = customers;
  const [tee, , , gloves] = products;
  if (ada === undefined || nils === undefined || tee === undefined || gloves === undefined) return;
  await services.tradePrices.bulkCreate(storeId, CLI_ORIGIN, [
    { customerId: ada.id, productId: tee.id, sku: 'TEE-RED-M', price: 6.5 },
    { customerId: ada.id, productId: tee.id, sku: 'TEE-BLUE-XL', price: 7.75 },
    { customerId: nils.id, productId: tee.id, sku: 'TEE-RED-M', price: 6.8 },
    { customerId: nils.id, productId: gloves.id, sku: 'GLOVE-NIT-100', price: 5.9 },
  ]);
}
