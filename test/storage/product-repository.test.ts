import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselyProductRepository } from '../../src/storage/repositories/product-repository.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';

describe.each(await enginesUnderTest())('product reads on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;

  beforeAll(async () => {
    server = await startTestServer(engine);
    tenant = await server.createTenant();
    const category = await server.services.categories.create(tenant.storeId, { title: 'Apparel' });
    for (let index = 0; index < 50; index++) {
      await server.services.products.create(tenant.storeId, {
        title: `Tee ${index}`,
        price: 10,
        categoryIds: [category.id],
        variations: [{ sku: `TEE-${index}-M` }, { sku: `TEE-${index}-L` }],
      });
    }
  });
  afterAll(() => server.close());

  it('reads a page of 50 products with their variations and categories in three queries', async () => {
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const products = new KyselyProductRepository(server.services.database.db.withPlugin(counter));

    const page = await products.list(tenant.storeId, {}, { count: 50, offset: 0 });
    expect(page).toHaveLength(50);
    expect(page.every((product) => product.variations.length === 2 && product.categoryIds.length === 1)).toBe(true);
    expect(queries).toBe(3);

    queries = 0;
    expect(await products.find(tenant.storeId, page[7]!.id)).toEqual(page[7]);
    expect(queries).toBe(3);
  });
});
