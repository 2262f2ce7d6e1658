import { beforeAll, describe, expect, it } from 'vitest';
import { checkedClient, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { CatalogFixture } from '../support/catalog-fixture.js';
import { clip } from '../../src/text/clip.js';
import { createExamples, type CreateExamples } from '../support/create-examples.js';
import { startTestServer } from '../support/test-server.js';

/** The server's OpenAPI document, read once from a server of its own. */
async function openApiDocument(): Promise<Parameters<typeof createExamples>[0]> {
  const server = await startTestServer('sqlite');
  try {
    return (await server.request('GET', '/openapi.json')).body as Parameters<typeof createExamples>[0];
  } finally {
    await server.close();
  }
}

/**
 * C0 and C1 control characters in what names things (SKUs, customer and company names,
 * e-mail addresses, titles, price list names): a 422, code 10, naming the field (and the item's
 * index in a bulk array) and saying which character is where; nothing stored. The fields are
 * found in the server's own OpenAPI document (`x-no-control-characters`), so a field marked
 * later fails here until it has a case below (or, for a plain resource, its create's body has an
 * example, from which its cases are made), and a case whose field lost its mark fails too.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  'x-no-control-characters'?: boolean;
}

/** Every marked string in a body schema: `title`, `variations[].sku`, `[].sku` for an array body. */
function markedFields(schema: JsonSchema | undefined, path = ''): string[] {
  if (schema === undefined) return [];
  const own = schema['x-no-control-characters'] === true ? [path] : [];
  const items = schema.items === undefined ? [] : markedFields(schema.items, `${path}[]`);
  const properties = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => markedFields(property, path === '' ? name : `${path}.${name}`));
  return [...own, ...items, ...properties];
}

interface Context {
  catalog: CatalogFixture;
  priceListId: number;
  customerGroupId: number;
  /** A record of store's own in each collection whose cases come from its create's example. */
  recordOf: (collection: string) => number;
  /** A product of its own for the product updates, and one with a variation for the variation endpoints. */
  productId: number;
  variationProductId: number;
  variationId: number;
  /** A fresh number each call: for SKUs and e-mail addresses that must be new. */
  next: () => number;
}

interface FieldCase {
  url: (context: Context) => string;
  /** A valid body with `value` in the field. */
  body: (value: string, context: Context) => unknown;
  /** A value the field accepts (fresh where it must be unique); a control character goes after its second character. */
  valid: (context: Context) => string;
  /** Where the 422 puts the problem. */
  at: { index?: number; field: string };
  /** The status of the valid body; default 201 for POST, 200 for PUT. */
  accepted?: number;
}

const title = (context: Context) => `Title ${context.next()}`;
const freshSku = (context: Context) => `CC-${context.next()}`;
const email = (context: Context) => `cc${context.next()}@example.com`;

const productBody = (field: 'title' | 'sku') => (value: string, context: Context) => ({
  title: field === 'title' ? value : 'Shirt',
  sku: field === 'sku' ? value : freshSku(context),
  price: 1,
});
const customerBody = (field: string) => (value: string, context: Context) => ({ email: email(context), [field]: value });
const tradePrice = (sku: string, context: Context) => ({ customerId: context.catalog.tradeCustomer, productId: context.catalog.tee, sku, price: 9 });
const pricedSku = (sku: string, context: Context) => ({ productId: context.catalog.tee, sku, price: 9 });

const HAND_WRITTEN: Record<string, FieldCase> = {
  'POST /v1/products title': { url: () => '/v1/products', body: productBody('title'), valid: title, at: { field: 'title' } },
  'POST /v1/products sku': { url: () => '/v1/products', body: productBody('sku'), valid: freshSku, at: { field: 'sku' } },
  'POST /v1/products variations[].sku': {
    url: () => '/v1/products',
    body: (value, context) => ({ title: 'Shirt', price: 1, variations: [{ sku: freshSku(context) }, { sku: value }] }),
    valid: freshSku,
    at: { field: 'variations[1].sku' },
  },
  'PUT /v1/products/{id} title': {
    url: (context) => `/v1/products/${context.productId}`,
    body: (value) => ({ title: value }),
    valid: title,
    at: { field: 'title' },
  },
  'PUT /v1/products/{id} sku': {
    url: (context) => `/v1/products/${context.productId}`,
    body: (value) => ({ sku: value }),
    valid: freshSku,
    at: { field: 'sku' },
  },
  'PUT /v1/products/{id} variations[].sku': {
    url: (context) => `/v1/products/${context.productId}`,
    body: (value, context) => ({ variations: [{ sku: freshSku(context) }, { sku: freshSku(context) }, { sku: value }] }),
    valid: freshSku,
    at: { field: 'variations[2].sku' },
  },
  'POST /v1/products/{id}/variations sku': {
    url: (context) => `/v1/products/${context.variationProductId}/variations`,
    body: (value) => ({ sku: value }),
    valid: freshSku,
    at: { field: 'sku' },
  },
  'PUT /v1/products/{id}/variations/{variationId} sku': {
    url: (context) => `/v1/products/${context.variationProductId}/variations/${context.variationId}`,
    body: (value) => ({ sku: value }),
    valid: freshSku,
    at: { field: 'sku' },
  },
  'POST /v1/customers email': { url: () => '/v1/customers', body: (value) => ({ email: value }), valid: email, at: { field: 'email' } },
  'POST /v1/customers firstName': { url: () => '/v1/customers', body: customerBody('firstName'), valid: () => 'Ada', at: { field: 'firstName' } },
  'POST /v1/customers lastName': { url: () => '/v1/customers', body: customerBody('lastName'), valid: () => 'Lovelace', at: { field: 'lastName' } },
  'POST /v1/customers companyName': {
    url: () => '/v1/customers',
    body: customerBody('companyName'),
    valid: () => 'Analytical Engines Ltd',
    at: { field: 'companyName' },
  },
  'PUT /v1/customers/{id} email': {
    url: (context) => `/v1/customers/${context.catalog.regularCustomer}`,
    body: (value) => ({ email: value }),
    valid: email,
    at: { field: 'email' },
  },
  'PUT /v1/customers/{id} firstName': {
    url: (context) => `/v1/customers/${context.catalog.regularCustomer}`,
    body: (value) => ({ firstName: value }),
    valid: () => 'Grace',
    at: { field: 'firstName' },
  },
  'PUT /v1/customers/{id} lastName': {
    url: (context) => `/v1/customers/${context.catalog.regularCustomer}`,
    body: (value) => ({ lastName: value }),
    valid: () => 'Hopper',
    at: { field: 'lastName' },
  },
  'PUT /v1/customers/{id} companyName': {
    url: (context) => `/v1/customers/${context.catalog.regularCustomer}`,
    body: (value) => ({ companyName: value }),
    valid: () => 'Navy',
    at: { field: 'companyName' },
  },
  'POST /v1/change-sets name': { url: () => '/v1/change-sets', body: (value) => ({ name: value }), valid: title, at: { field: 'name' } },
  'POST /v1/price-lists name': { url: () => '/v1/price-lists', body: (value) => ({ name: value, kind: 'fixed' }), valid: title, at: { field: 'name' } },
  'PUT /v1/price-lists/{id} name': {
    url: (context) => `/v1/price-lists/${context.priceListId}`,
    body: (value) => ({ name: value }),
    valid: title,
    at: { field: 'name' },
  },
  'POST /v1/customer-groups name': { url: () => '/v1/customer-groups', body: (value) => ({ name: value }), valid: title, at: { field: 'name' } },
  'PUT /v1/customer-groups/{id} name': {
    url: (context) => `/v1/customer-groups/${context.customerGroupId}`,
    body: (value) => ({ name: value }),
    valid: title,
    at: { field: 'name' },
  },
  'POST /v1/products/bulk [].title': {
    url: () => '/v1/products/bulk',
    body: (value, context) => [productBody('title')(title(context), context), productBody('title')(value, context)],
    valid: title,
    at: { index: 1, field: 'title' },
  },
  'POST /v1/products/bulk [].sku': {
    url: () => '/v1/products/bulk',
    body: (value, context) => [productBody('sku')(freshSku(context), context), productBody('sku')(value, context)],
    valid: freshSku,
    at: { index: 1, field: 'sku' },
  },
  'POST /v1/products/bulk [].variations[].sku': {
    url: () => '/v1/products/bulk',
    body: (value, context) => [{ title: 'Shirt', price: 1, variations: [{ sku: freshSku(context) }, { sku: value }] }],
    valid: freshSku,
    at: { index: 0, field: 'variations[1].sku' },
  },
  'POST /v1/customers/bulk [].email': {
    url: () => '/v1/customers/bulk',
    body: (value, context) => [{ email: email(context) }, { email: value }],
    valid: email,
    at: { index: 1, field: 'email' },
  },
  'POST /v1/customers/bulk [].firstName': {
    url: () => '/v1/customers/bulk',
    body: (value, context) => [customerBody('firstName')(value, context)],
    valid: () => 'Ada',
    at: { index: 0, field: 'firstName' },
  },
  'POST /v1/customers/bulk [].lastName': {
    url: () => '/v1/customers/bulk',
    body: (value, context) => [customerBody('lastName')(value, context)],
    valid: () => 'Lovelace',
    at: { index: 0, field: 'lastName' },
  },
  'POST /v1/customers/bulk [].companyName': {
    url: () => '/v1/customers/bulk',
    body: (value, context) => [customerBody('companyName')(value, context)],
    valid: () => 'Analytical Engines Ltd',
    at: { index: 0, field: 'companyName' },
  },
  'POST /v1/skus/lookup skus[]': {
    url: () => '/v1/skus/lookup',
    body: (value, context) => ({ skus: [context.catalog.skus.mug, value] }),
    valid: (context) => context.catalog.skus.teeRedM,
    at: { field: 'skus[1]' },
    accepted: 200,
  },
  'POST /v1/price-lists/{id}/prices/bulk [].sku': {
    url: (context) => `/v1/price-lists/${context.priceListId}/prices/bulk`,
    body: (value, context) => [pricedSku(context.catalog.skus.tee, context), pricedSku(value, context)],
    valid: (context) => context.catalog.skus.teeRedM,
    at: { index: 1, field: 'sku' },
  },
  'POST /v1/trade-customer-product-prices/bulk [].sku': {
    url: () => '/v1/trade-customer-product-prices/bulk',
    body: (value, context) => [tradePrice(context.catalog.skus.tee, context), tradePrice(value, context)],
    valid: (context) => context.catalog.skus.teeRedM,
    at: { index: 1, field: 'sku' },
  },
  'POST /v1/trade-customer-product-prices/replace prices[].sku': {
    url: () => '/v1/trade-customer-product-prices/replace',
    body: (value, context) => ({
      customerId: context.catalog.tradeCustomer,
      scope: 'skus',
      prices: [pricedSku(context.catalog.skus.tee, context), pricedSku(value, context)],
    }),
    valid: (context) => context.catalog.skus.teeRedM,
    at: { index: 1, field: 'sku' },
    accepted: 200,
  },
  'POST /v1/price-lists/{id}/prices/replace prices[].sku': {
    url: (context) => `/v1/price-lists/${context.priceListId}/prices/replace`,
    body: (value, context) => ({ scope: 'skus', prices: [pricedSku(context.catalog.skus.tee, context), pricedSku(value, context)] }),
    valid: (context) => context.catalog.skus.teeRedM,
    at: { index: 1, field: 'sku' },
    accepted: 200,
  },
  'POST /v1/quotes lines[].sku': {
    url: () => '/v1/quotes',
    body: (value, context) => ({
      customerId: context.catalog.tradeCustomer,
      lines: [
        { sku: context.catalog.skus.mug, quantity: 1 },
        { sku: value, quantity: 1 },
      ],
    }),
    valid: (context) => context.catalog.skus.teeRedM,
    at: { index: 1, field: 'sku' },
    accepted: 200,
  },
  'POST /v1/orders lines[].sku': {
    url: () => '/v1/orders',
    body: (value, context) => ({
      customerId: context.catalog.tradeCustomer,
      lines: [
        { sku: context.catalog.skus.mug, quantity: 1 },
        { sku: value, quantity: 1 },
      ],
    }),
    valid: (context) => context.catalog.skus.teeRedM,
    at: { index: 1, field: 'sku' },
  },
};

/**
 * The cases of a resource without hand-written ones, from its create's example body
 * (test/support/create-examples.ts): each marked top-level field of the create and of the
 * update (`PUT <collection>/{id}`, on a record made from the example), the example with the
 * value put in that field.
 */
function casesFromExamples(document: Parameters<typeof createExamples>[0], examples: CreateExamples): Record<string, FieldCase> {
  const cases: Record<string, FieldCase> = {};
  for (const [collection, example] of examples) {
    const valid = (field: string) => (context: Context) => `${String(example[field])} ${context.next()}`;
    const fields = (method: string, template: string) =>
      markedFields(document.paths[template]?.[method]?.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined);
    for (const field of fields('post', collection).filter((name) => name in example)) {
      cases[`POST ${collection} ${field}`] = { url: () => collection, body: (value) => ({ ...example, [field]: value }), valid: valid(field), at: { field } };
    }
    for (const field of fields('put', `${collection}/{id}`).filter((name) => name in example)) {
      cases[`PUT ${collection}/{id} ${field}`] = {
        url: (context) => `${collection}/${context.recordOf(collection)}`,
        body: (value) => ({ [field]: value }),
        valid: valid(field),
        at: { field },
      };
    }
  }
  return cases;
}

const document = await openApiDocument();
const examples = createExamples(document);
const CASES: Record<string, FieldCase> = { ...casesFromExamples(document, examples), ...HAND_WRITTEN };

/** The edges of both ranges and the characters terminal attacks use: BEL, tab, LF, CR, ESC, DEL, CSI (8-bit). */
const CONTROLS = [0x01, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9b, 0x9f];

/** `U+001B` */
const named = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

describe.each(await enginesUnderTest())('control characters in names, SKUs and e-mail addresses on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  const sites: string[] = [];
  let context: Context;

  beforeAll(async () => {
    const api = checkedClient(suite.server);
    const token = suite.tenant.token;
    const list = await api.request('POST', '/v1/price-lists', { token, body: { name: 'Controls', kind: 'fixed' } });
    const group = await api.request('POST', '/v1/customer-groups', { token, body: { name: 'Controls' } });
    const product = await api.request('POST', '/v1/products', { token, body: { title: 'Controls', sku: 'CC-PRODUCT', price: 1 } });
    const withVariation = await api.request('POST', '/v1/products', { token, body: { title: 'Controls', price: 1, variations: [{ sku: 'CC-VARIATION' }] } });
    expect([list.status, group.status, product.status, withVariation.status]).toEqual([201, 201, 201, 201]);
    const records = new Map<string, number>();
    for (const [collection, example] of examples) {
      const created = await api.request('POST', collection, { token, body: example });
      if (created.status === 201) records.set(collection, (created.body as { id: number }).id);
    }
    const id = (response: { body: unknown }) => (response.body as { id: number }).id;
    let sequence = 0;
    context = {
      catalog: suite.catalog,
      priceListId: id(list),
      customerGroupId: id(group),
      recordOf: (collection) => {
        const record = records.get(collection);
        if (record === undefined) throw new Error(`${collection}: its create's example made no record`);
        return record;
      },
      productId: id(product),
      variationProductId: id(withVariation),
      variationId: (withVariation.body as { variations: Array<{ id: number }> }).variations[0]!.id,
      next: () => ++sequence,
    };
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const field of markedFields(operation.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined))
          sites.push(`${method.toUpperCase()} ${template} ${field}`);
      }
    }
  });

  it('has a case for every field the OpenAPI document marks, and no other', () => {
    expect(sites.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.keys(CASES))('%s: 422 naming the field and the character, nothing stored; the same text without it is accepted', async (key) => {
    const [method] = key.split(' ') as [string];
    const site = CASES[key]!;
    const api = checkedClient(suite.server);
    const token = suite.tenant.token;
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    for (const codePoint of CONTROLS) {
      const clean = site.valid(context);
      const value = `${clean.slice(0, 2)}${String.fromCharCode(codePoint)}${clean.slice(2)}`;
      const response = await api.request(method, site.url(context), { token, body: site.body(value, context) });
      const sent = `${named(codePoint)} in ${JSON.stringify(value)}`;
      expectError(response, 422, 10);
      const problems = (response.body as { errors: Array<{ index?: number; field: string | null; message: string }> }).errors;
      // The value refused comes back as sent (JSON escapes the character), clipped as every quoted value.
      expect(problems, sent).toContainEqual({
        ...site.at,
        message: `must not contain control characters (${named(codePoint)} at position 3)`,
        value: clip(value),
      });
      // An e-mail address with one is also not an address; nothing else is named.
      for (const problem of problems) expect({ index: problem.index, field: problem.field }, sent).toEqual({ index: site.at.index, field: site.at.field });
    }
    // An OSC title change ended by BEL: the first control character is named.
    const osc = await api.request(method, site.url(context), { token, body: site.body(`\u001b]0;owned\u0007${site.valid(context)}`, context) });
    expectError(osc, 422, 10);
    expect((osc.body as { errors: unknown[] }).errors).toContainEqual(
      expect.objectContaining({ ...site.at, message: 'must not contain control characters (U+001B at position 1)' }),
    );
    expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId)).toEqual(before);

    const accepted = await api.request(method, site.url(context), { token, body: site.body(site.valid(context), context) });
    expect(accepted.status, accepted.text).toBe(site.accepted ?? (method === 'POST' ? 201 : 200));
  });

  it('refuses NUL as before, naming the field; accepts what only looks odd: spaces, no-break spaces, line separators, accents, emoji', async () => {
    const api = checkedClient(suite.server);
    const token = suite.tenant.token;
    const nul = await api.request('POST', '/v1/products', { token, body: { title: 'Shirt', sku: 'CC-\u0000', price: 1 } });
    expectError(nul, 422, 10);
    expect((nul.body as { errors: unknown[] }).errors).toEqual([{ field: 'sku', message: 'must not contain the NUL character (\\u0000)' }]);
    const odd = ['A B', 'A\u00a0B', 'A\u2028B', 'Crème brûlée', 'Tee 👕 ¡', '\u00a0\u00ff'];
    for (const [index, text] of odd.entries()) {
      const product = await api.request('POST', '/v1/products', { token, body: { title: text, sku: `${text}-${index}`, price: 1 } });
      expect(product.status, `${JSON.stringify(text)}: ${product.text}`).toBe(201);
      expect(product.body).toMatchObject({ title: text, sku: `${text}-${index}` });
    }
    // Other text fields (a webhook's URL is checked as a URL) and query filters are not affected: a lookup by such a SKU finds nothing.
    const lookup = await api.request('GET', `/v1/products?sku=${encodeURIComponent('CC-\u001b')}`, { token });
    expect([lookup.status, lookup.body]).toEqual([200, []]);
  });

  it('keeps records stored before the rule readable and usable: read, listed, updated in other fields, deleted', async () => {
    const api = checkedClient(suite.server);
    const token = suite.tenant.token;
    const created = await api.request('POST', '/v1/products', { token, body: { title: 'Legacy', sku: 'LEGACY-1', price: 5 } });
    const customer = await api.request('POST', '/v1/customers', { token, body: { email: 'legacy@example.com', firstName: 'Old', trade: true } });
    const productId = (created.body as { id: number }).id;
    const customerId = (customer.body as { id: number }).id;
    expect(
      (await api.request('POST', '/v1/trade-customer-product-prices/bulk', { token, body: [{ customerId, productId, sku: 'LEGACY-1', price: 4 }] })).status,
    ).toBe(201);
    // What an older version let in, written straight to the database.
    const legacySku = 'LEGACY-\u001b[31m\u009b1';
    const { db } = suite.server.services.database;
    await db.updateTable('products').set({ sku: legacySku, title: 'Legacy\u0007' }).where('id', '=', productId).execute();
    await db.updateTable('skus').set({ sku: legacySku }).where('product_id', '=', productId).execute();
    await db.updateTable('trade_prices').set({ sku: legacySku }).where('product_id', '=', productId).execute();
    await db.updateTable('customers').set({ first_name: 'Old\u001b]0;x\u0007' }).where('id', '=', customerId).execute();

    const product = await api.request('GET', `/v1/products/${productId}`, { token });
    expect(product.body).toMatchObject({ sku: legacySku, title: 'Legacy\u0007' });
    expect((await api.request('GET', `/v1/customers/${customerId}`, { token })).body).toMatchObject({ firstName: 'Old\u001b]0;x\u0007' });
    const prices = await api.request('GET', `/v1/trade-customer-product-prices?customerId=${customerId}&embed=product,customer`, { token });
    expect(prices.body).toMatchObject([{ sku: legacySku, product: { sku: legacySku }, customer: { firstName: 'Old\u001b]0;x\u0007' } }]);
    const effective = await api.request('GET', `/v1/trade-customer-product-prices/effective?customerId=${customerId}&sku=${encodeURIComponent(legacySku)}`, {
      token,
    });
    expect([effective.status, (effective.body as { price: number }).price]).toEqual([200, 4]);
    // Fields that are sent are checked; the stored ones are left as they are.
    const repriced = await api.request('PUT', `/v1/products/${productId}`, { token, body: { price: 6 } });
    expect([repriced.status, repriced.body]).toMatchObject([200, { sku: legacySku, title: 'Legacy\u0007', price: 6 }]);
    const renamed = await api.request('PUT', `/v1/customers/${customerId}`, { token, body: { lastName: 'Timer' } });
    expect([renamed.status, renamed.body]).toMatchObject([200, { firstName: 'Old\u001b]0;x\u0007', lastName: 'Timer' }]);
    const cleaned = await api.request('PUT', `/v1/customers/${customerId}`, { token, body: { firstName: 'Old' } });
    expect([cleaned.status, cleaned.body]).toMatchObject([200, { firstName: 'Old' }]);
    expect((await api.request('DELETE', `/v1/products/${productId}`, { token })).status).toBe(204);
  });
});
