import { expect } from 'vitest';
import type { Tenant, TestServer } from './test-server.js';

export interface CatalogFixture {
  tradeCustomer: number;
  otherTradeCustomer: number;
  regularCustomer: number;
  /** sku TEE, price 10; variations TEE-RED-M (12.5) and TEE-RED-L (no own price). */
  tee: number;
  /** sku MUG, price 4.2. */
  mug: number;
  skus: { tee: string; teeRedM: string; teeRedL: string; mug: string };
}

let sequence = 0;

/** A small catalog made through the API, as an integrator would make it. */
export async function createCatalog(server: TestServer, tenant: Tenant, suffix = `${++sequence}`): Promise<CatalogFixture> {
  const post = async (path: string, body: unknown): Promise<number> => {
    const response = await server.request('POST', path, { token: tenant.token, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return (response.body as { id: number }).id;
  };
  const skus = { tee: `TEE${suffix}`, teeRedM: `TEE${suffix}-RED-M`, teeRedL: `TEE${suffix}-RED-L`, mug: `MUG${suffix}` };
  return {
    skus,
    tradeCustomer: await post('/v1/customers', { email: `trade-${suffix}@example.com`, trade: true }),
    otherTradeCustomer: await post('/v1/customers', { email: `trade2-${suffix}@example.com`, trade: true }),
    regularCustomer: await post('/v1/customers', { email: `regular-${suffix}@example.com` }),
    tee: await post('/v1/products', {
      title: 'Tee',
      sku: skus.tee,
      price: 10,
      variations: [{ sku: skus.teeRedM, price: 12.5 }, { sku: skus.teeRedL }],
    }),
    mug: await post('/v1/products', { title: 'Mug', sku: skus.mug, price: 4.2 }),
  };
}
