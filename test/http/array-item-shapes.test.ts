import { beforeAll, describe, expect, it } from 'vitest';
import { checkedClient, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';
import type { CatalogFixture } from '../support/catalog-fixture.js';

/**
 * Every array of objects in every request body, with one item replaced by something that is
 * not an object (null, numbers, strings, booleans, arrays) or by an object with null fields:
 * a 422 (code 10) whose problems all name that item, never a 5xx, and nothing stored. The
 * arrays are found in the server's own OpenAPI document, so an array added to a body later
 * fails here until it has a case below. Deterministic, unlike the fuzz suite that first found
 * a 500 here (`{"lines":[null]}` on `POST /v1/orders`).
 */

/** Where an array of objects sits in a request body: `lines`, `variations`, or `` for the body itself. */
interface ArraySite {
  method: string;
  template: string;
  path: string;
  /** The fields of an item that may be null. */
  nullable: string[];
}

interface SiteCase {
  /** The URL the request goes to. */
  url: (catalog: CatalogFixture) => string;
  /** A valid body around `items`. */
  body: (items: unknown[], catalog: CatalogFixture) => unknown;
  /** Two items the server accepts in that array. */
  validItems: (catalog: CatalogFixture) => [Record<string, unknown>, Record<string, unknown>];
  /** The status of a valid request; default 201 for POST, 200 for PUT. */
  accepted?: number;
}

/** A fixed price list of the tenant's, made before the cases run. */
let priceListId = 0;
/** A draft change set of the tenant's, made before the cases run. */
let changeSetId = 0;

const CASES: Record<string, SiteCase> = {
  'POST /v1/orders lines': {
    url: () => '/v1/orders',
    body: (lines, catalog) => ({ customerId: catalog.tradeCustomer, lines }),
    validItems: (catalog) => [
      { sku: catalog.skus.teeRedM, quantity: 1 },
      { sku: catalog.skus.mug, quantity: 2 },
    ],
  },
  'POST /v1/products variations': {
    url: () => '/v1/products',
    body: (variations) => ({ title: 'Shaped', price: 1, variations }),
    validItems: () => [
      { sku: 'SHAPE-A', price: 1 },
      { sku: 'SHAPE-B', price: 2 },
    ],
  },
  'PUT /v1/products/{id} variations': {
    url: (catalog) => `/v1/products/${catalog.tee}`,
    body: (variations) => ({ variations }),
    validItems: (catalog) => [
      { sku: catalog.skus.teeRedM, price: 11 },
      { sku: catalog.skus.teeRedL, price: 13 },
    ],
  },
  'POST /v1/quotes lines': {
    url: () => '/v1/quotes',
    body: (lines, catalog) => ({ customerId: catalog.tradeCustomer, lines }),
    validItems: (catalog) => [
      { sku: catalog.skus.teeRedM, quantity: 1 },
      { sku: catalog.skus.mug, quantity: 2 },
    ],
    accepted: 200,
  },
  'POST /v1/price-lists/{id}/prices/bulk ': {
    url: () => `/v1/price-lists/${priceListId}/prices/bulk`,
    body: (items) => items,
    validItems: (catalog) => [
      { productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9, minQuantity: 5 },
    ],
  },
  'POST /v1/trade-customer-product-prices/replace prices': {
    url: () => '/v1/trade-customer-product-prices/replace',
    body: (prices, catalog) => ({ customerId: catalog.tradeCustomer, scope: 'skus', prices }),
    validItems: (catalog) => [
      { productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9, minQuantity: 5 },
    ],
    accepted: 200,
  },
  'POST /v1/price-lists/{id}/prices/replace prices': {
    url: () => `/v1/price-lists/${priceListId}/prices/replace`,
    body: (prices) => ({ scope: 'skus', prices }),
    validItems: (catalog) => [
      { productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9, minQuantity: 5 },
    ],
    accepted: 200,
  },
  'POST /v1/change-sets/{id}/operations ': {
    url: () => `/v1/change-sets/${changeSetId}/operations`,
    body: (items) => items,
    validItems: (catalog) => [
      { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
      { type: 'customer.set_price_lists', customerId: catalog.tradeCustomer, priceListIds: [] },
    ],
  },
  'POST /v1/products/bulk ': {
    url: () => '/v1/products/bulk',
    body: (items) => items,
    validItems: () => [
      { title: 'Bulk shaped', sku: 'BULK-SHAPE-A', price: 1 },
      { title: 'Bulk shaped too', sku: 'BULK-SHAPE-B', price: 2 },
    ],
  },
  'POST /v1/products/bulk [].variations': {
    url: () => '/v1/products/bulk',
    body: (variations) => [{ title: 'Bulk with variations', price: 1, variations }],
    validItems: () => [
      { sku: 'BULK-SHAPE-V1', price: 1 },
      { sku: 'BULK-SHAPE-V2', price: 2 },
    ],
  },
  'POST /v1/customers/bulk ': {
    url: () => '/v1/customers/bulk',
    body: (items) => items,
    validItems: () => [{ email: 'bulk-shape-a@example.com', trade: true }, { email: 'bulk-shape-b@example.com' }],
  },
  'POST /v1/trade-customer-product-prices/bulk ': {
    url: () => '/v1/trade-customer-product-prices/bulk',
    body: (items) => items,
    validItems: (catalog) => [
      { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
      { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9 },
    ],
  },
};

/** Not objects: what a client may send by mistake, or on purpose. */
const NOT_OBJECTS: unknown[] = [null, 0, -1, 1.5, 1e300, '', 'x', '{}', true, false, [], [null], [{}], [[null]]];

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

/** Every array of objects in one body schema: its path (`variations`, `` for the body) and item schema. */
function arraysOfObjects(schema: JsonSchema | undefined, path = ''): Array<{ path: string; item: JsonSchema }> {
  if (schema === undefined) return [];
  if (schema.items !== undefined) {
    const own = schema.items.type === 'object' || schema.items.properties !== undefined ? [{ path, item: schema.items }] : [];
    return [...own, ...arraysOfObjects(schema.items, `${path}[]`)];
  }
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => arraysOfObjects(property, path === '' ? name : `${path}.${name}`));
}

function acceptsNull(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') || (schema.anyOf ?? []).some(acceptsNull);
}

/** Whether a problem names the item at `position` of the array at `path` (an index, or a field below `lines[1]`). */
function namesItem(problem: { index?: number; field: string | null }, path: string, position: number): boolean {
  // Items of the body itself, and an order's, a quote's or a replace's, are reported with their index.
  if (path === '' || path === 'lines' || path === 'prices') return problem.index === position;
  // An array inside the items of a bulk body (a product's `variations`): the cases send one item, index 0.
  if (path.startsWith('[].')) {
    const field = path.slice(3);
    return problem.index === 0 && (problem.field === `${field}[${position}]` || (problem.field ?? '').startsWith(`${field}[${position}].`));
  }
  return problem.field === `${path}[${position}]` || (problem.field ?? '').startsWith(`${path}[${position}].`);
}

describe.each(await enginesUnderTest())('items of request arrays on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  let sites: ArraySite[];

  beforeAll(async () => {
    const list = await suite.server.request('POST', '/v1/price-lists', { token: suite.tenant.token, body: { name: 'Shapes', kind: 'fixed' } });
    expect(list.status, list.text).toBe(201);
    priceListId = (list.body as { id: number }).id;
    const set = await suite.server.request('POST', '/v1/change-sets', { token: suite.tenant.token, body: { name: 'Shapes' } });
    expect(set.status, set.text).toBe(201);
    changeSetId = (set.body as { id: number }).id;
    const response = await suite.server.request('GET', '/openapi.json');
    const document = response.body as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> };
    sites = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        arraysOfObjects(operation.requestBody?.content['application/json']?.schema).map(({ path, item }) => ({
          method: method.toUpperCase(),
          template,
          path,
          nullable: Object.entries(item.properties ?? {})
            .filter(([, field]) => acceptsNull(field))
            .map(([name]) => name),
        })),
      ),
    );
  });

  it('has a case for every array of objects the OpenAPI document shows, and no other', () => {
    expect(sites.map(({ method, template, path }) => `${method} ${template} ${path}`).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.keys(CASES))('%s: a 422 naming the item for anything that is not an object, nothing stored', async (key) => {
    const [method, , path] = key.split(' ') as [string, string, string];
    const site = CASES[key]!;
    const { nullable } = sites.find((found) => `${found.method} ${found.template} ${found.path}` === key)!;
    const api = checkedClient(suite.server);
    const catalog = suite.catalog;
    const valid = site.validItems(catalog);
    // Each field that may not be null set to null, one at a time and all at once.
    const notNullable = Object.keys(valid[0]).filter((field) => !nullable.includes(field));
    expect(notNullable.length).toBeGreaterThan(0);
    const nullFields = notNullable.map((field) => ({ ...valid[0], [field]: null }));
    const allNull = Object.fromEntries(Object.keys(valid[0]).map((field) => [field, null]));
    const badItems = [...NOT_OBJECTS, {}, allNull, ...nullFields];
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);

    let checked = 0;
    for (const bad of badItems) {
      for (const position of [0, 1]) {
        const items: unknown[] = [...valid];
        items[position] = bad;
        const response: HttpResponse = await api.request(method, site.url(catalog), { token: suite.tenant.token, body: site.body(items, catalog) });
        const sent = `${JSON.stringify(bad)} at ${path || 'body'}[${position}]`;
        expectError(response, 422, 10);
        const problems = (response.body as { errors: Array<{ index?: number; field: string | null; message: string }> }).errors;
        expect(problems.length, sent).toBeGreaterThan(0);
        for (const problem of problems) expect(namesItem(problem, path, position), `${sent}: ${JSON.stringify(problem)}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBe(badItems.length * 2);
    expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId)).toEqual(before);
    // The valid items themselves are accepted, so the refusals above were the bad item's doing.
    const accepted = await api.request(method, site.url(catalog), { token: suite.tenant.token, body: site.body([...valid], catalog) });
    expect(accepted.status, accepted.text).toBe(site.accepted ?? (method === 'POST' ? 201 : 200));
  });
});
