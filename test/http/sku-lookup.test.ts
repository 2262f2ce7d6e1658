import { describe, expect, it } from 'vitest';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';

const PATH = '/v1/skus/lookup';

describe.each(await enginesUnderTest())('POST /v1/skus/lookup on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  const lookup = (body: unknown, token = suite.tenant.token) => suite.server.request('POST', PATH, { token, body });

  it('answers each known SKU with its product, variation and catalog price, and lists the unknown ones, in request order', async () => {
    const { skus, tee, mug } = suite.catalog;
    const response = await lookup({ skus: [skus.mug, 'NO-SUCH-SKU', skus.teeRedM, skus.tee, skus.teeRedL, 'ALSO-MISSING'] });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-rate-limit-remaining']).toBeDefined();
    const teeVariations = (
      (await suite.server.request('GET', `/v1/products/${tee}`, { token: suite.tenant.token })).body as { variations: Array<{ id: number; sku: string }> }
    ).variations;
    const variationOf = (sku: string) => teeVariations.find((variation) => variation.sku === sku)!.id;
    expect(response.body).toEqual({
      found: [
        { sku: skus.mug, productId: mug, variationId: null, price: 4.2 },
        { sku: skus.teeRedM, productId: tee, variationId: variationOf(skus.teeRedM), price: 12.5 },
        { sku: skus.tee, productId: tee, variationId: null, price: 10 },
        // A variation without a price of its own: its product's price applies.
        { sku: skus.teeRedL, productId: tee, variationId: variationOf(skus.teeRedL), price: 10 },
      ],
      unknown: ['NO-SUCH-SKU', 'ALSO-MISSING'],
    });
  });

  it('matches SKUs exactly (case and spaces count) and answers a SKU sent twice once', async () => {
    const { skus, mug } = suite.catalog;
    const response = await lookup({ skus: [skus.mug, skus.mug.toLowerCase(), ` ${skus.mug}`, skus.mug] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      found: [{ sku: skus.mug, productId: mug, variationId: null, price: 4.2 }],
      unknown: [skus.mug.toLowerCase(), ` ${skus.mug}`],
    });
  });

  it("never shows another store's SKUs: they are unknown", async () => {
    const response = await lookup({ skus: [suite.foreign.skus.tee, suite.foreign.skus.teeRedM, suite.catalog.skus.tee] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      found: [{ sku: suite.catalog.skus.tee, productId: suite.catalog.tee, variationId: null, price: 10 }],
      unknown: [suite.foreign.skus.tee, suite.foreign.skus.teeRedM],
    });
    const theirs = await lookup({ skus: [suite.catalog.skus.tee] }, suite.other.token);
    expect(theirs.body).toEqual({ found: [], unknown: [suite.catalog.skus.tee] });
  });

  it('takes 1000 SKUs in one request and refuses 1001, naming the field', async () => {
    const thousand = Array.from({ length: 1000 }, (_, index) => (index === 999 ? suite.catalog.skus.mug : `MISSING-${index}`));
    const ok = await lookup({ skus: thousand });
    expect(ok.status).toBe(200);
    const body = ok.body as { found: unknown[]; unknown: string[] };
    expect(body.found).toHaveLength(1);
    expect(body.unknown).toHaveLength(999);
    expect(body.unknown[0]).toBe('MISSING-0');

    const tooMany = await lookup({ skus: [...thousand, 'ONE-MORE'] });
    expectError(tooMany, 422, 10);
    expect(tooMany.body).toMatchObject({ errors: [{ field: 'skus', message: expect.stringMatching(/1000/) }] });
  });

  it.each([
    ['no skus', {}, 'skus', 'is required'],
    ['an empty list', { skus: [] }, 'skus', /fewer than 1/],
    ['a number among the SKUs', { skus: ['A', 7] }, 'skus[1]', /string/],
    ['an empty SKU', { skus: [''] }, 'skus[0]', /fewer than 1/],
    ['a SKU longer than 255 characters', { skus: ['X'.repeat(256)] }, 'skus[0]', /more than 255/],
    ['an unknown field', { skus: ['A'], store: 2 }, 'store', 'is not a known field'],
    ['a body that is an array', ['A'], null, /object/],
  ])('refuses %s with 422 naming the field, and changes nothing', async (_label, body, field, message) => {
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    const response = await lookup(body);
    expectError(response, 422, 10);
    expect(response.body).toMatchObject({ errors: [{ field, message: typeof message === 'string' ? message : expect.stringMatching(message) }] });
    expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId)).toEqual(before);
  });

  it('refuses a body that is not JSON (400) or not sent as JSON (415)', async () => {
    const notJson = await suite.server.request('POST', PATH, {
      token: suite.tenant.token,
      rawBody: '{"skus":[',
      headers: { 'content-type': 'application/json' },
    });
    expectError(notJson, 400, 8);
    const text = await suite.server.request('POST', PATH, { token: suite.tenant.token, rawBody: 'skus=A', headers: { 'content-type': 'text/plain' } });
    expectError(text, 415, 7);
  });

  it('needs catalog:read and nothing more', async () => {
    const reader = await suite.server.createTenant(['catalog:read']);
    expect((await lookup({ skus: ['A'] }, reader.token)).status).toBe(200);
    const writer = await suite.server.createTenant(['catalog:write', 'trade_prices:read', 'trade_prices:write', 'orders:read', 'orders:write', 'webhooks']);
    const refused = await lookup({ skus: ['A'] }, writer.token);
    expectError(refused, 403, 4);
    expect((refused.body as { message: string }).message).toContain("'catalog:read'");
  });
});
