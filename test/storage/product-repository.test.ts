import type { KyselyPlugin } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { KyselyProductRepository } from '../../src/storage/repositories/product-repository.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { CLI_ORIGIN } from '../../src/modules/history/change-records.js';

describe.each(await enginesUnderTest())('product reads on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });

  beforeAll(async () => {
    const category = await suite.server.services.categories.create(suite.tenant.storeId, { title: 'Apparel' });
    for (let index = 0; index < 50; index++) {
      await suite.server.services.products.create(suite.tenant.storeId, CLI_ORIGIN, {
        title: `Tee ${index}`,
        price: 10,
        categoryIds: [category.id],
        variations: [{ sku: `TEE-${index}-M` }, { sku: `TEE-${index}-L` }],
      });
    }
  });

  it('reads a page of 50 products with their variations and categories in three queries', async () => {
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const products = new KyselyProductRepository(suite.server.services.database.db.withPlugin(counter));

    const page = await products.list(suite.tenant.storeId, {}, { count: 50, offset: 0 });
    expect(page).toHaveLength(50);
    expect(page.every((product) => product.variations.length === 2 && product.categoryIds.length === 1)).toBe(true);
    expect(queries).toBe(3);

    queries = 0;
    expect(await products.find(suite.tenant.storeId, page[7]!.id)).toEqual(page[7]);
    expect(queries).toBe(3);
  });
});
