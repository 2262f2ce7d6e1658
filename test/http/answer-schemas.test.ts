import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/app/openapi-document.js';
import { answerCheck, type AnswerCheck } from '../support/answer-schemas.js';

/**
 * The check every suite's test server runs on the answers it receives (test/support/answer-schemas.ts),
 * against the document the server serves: it must refuse what a route could get wrong.
 */
describe('the answers checked against the OpenAPI document', () => {
  let check: AnswerCheck;
  let document: Record<string, unknown>;
  beforeAll(async () => {
    document = await buildOpenApiDocument();
    check = answerCheck(document as unknown as Parameters<typeof answerCheck>[0]);
  });
  const price = {
    id: 7,
    customerId: 3,
    productId: 5,
    sku: 'TEE-RED-M',
    price: 7.25,
    minQuantity: 1,
    validFrom: null,
    validUntil: null,
    createdAt: '2026-12-01T10:00:00.000Z',
  };
  const json = 'application/json; charset=utf-8';

  it('passes a trade price as its schema lists it, and a page of them; a path no route has is left to the suites', () => {
    expect(() => check('GET', '/v1/trade-customer-product-prices/7', 200, json, price)).not.toThrow();
    expect(() => check('GET', '/v1/trade-customer-product-prices?limit=2', 200, json, [price, { ...price, id: 8 }])).not.toThrow();
    expect(() => check('GET', '/v1/no-such-thing', 404, json, { anything: true })).not.toThrow();
  });

  it('fails an answer with a field its schema forgot, naming the field and the operation', () => {
    expect(() => check('GET', '/v1/trade-customer-product-prices/7', 200, json, { ...price, cost: 3 })).toThrow(
      /GET \/v1\/trade-customer-product-prices\/\{id\} → 200 does not match.*cost/,
    );
    expect(() => check('GET', '/v1/trade-customer-product-prices', 200, json, [price, { ...price, cost: 3 }])).toThrow(/cost/);
  });

  it('fails an answer that leaves out a required field or gives one of another type', () => {
    const withoutSku: Record<string, unknown> = { ...price };
    delete withoutSku.sku;
    expect(() => check('GET', '/v1/trade-customer-product-prices/7', 200, json, withoutSku)).toThrow(/sku/);
    expect(() => check('GET', '/v1/trade-customer-product-prices/7', 200, json, { ...price, price: '7.25' })).toThrow(/\/price must be number/);
  });

  it('passes a fields= projection that leaves fields out, but not one with a field the schema does not list', () => {
    expect(() => check('GET', '/v1/trade-customer-product-prices/7?fields=id,price', 200, json, { id: 7, price: 7.25 })).not.toThrow();
    expect(() => check('GET', '/v1/trade-customer-product-prices/7?fields=id,price', 200, json, { id: 7, price: 7.25, cost: 3 })).toThrow(/cost/);
  });

  it("passes the server's own failure and a shutdown's 503 from any route, in the contract's error body only", () => {
    expect(() => check('PUT', '/v1/customers/3', 500, json, { code: 1, message: 'Internal error' })).not.toThrow();
    expect(() => check('GET', '/v1/trade-customer-product-prices/7', 503, json, { code: 1, message: 'Shutting down' })).not.toThrow();
    expect(() => check('PUT', '/v1/customers/3', 500, json, { statusCode: 500, error: 'Internal Server Error' })).toThrow(/→ 500 does not match/);
  });

  it('fails a status the operation does not document, and an error body not of the contract', () => {
    expect(() => check('GET', '/v1/trade-customer-product-prices/7', 418, json, {})).toThrow(/lists no 418/);
    expect(() => check('GET', '/v1/trade-customer-product-prices/7', 404, json, { message: 'gone' })).toThrow(/does not match/);
  });

  it('can see a forgotten field in every answer: each object an answer describes is closed, but the records of any resource an event or a history entry carries', () => {
    const open: string[] = [];
    const walk = (schema: unknown, where: string): void => {
      if (Array.isArray(schema)) return schema.forEach((item) => walk(item, where));
      if (typeof schema !== 'object' || schema === null) return;
      const object = schema as { type?: unknown; properties?: object; additionalProperties?: unknown; description?: string };
      const isObject = object.type === 'object' || (Array.isArray(object.type) && object.type.includes('object')) || object.properties !== undefined;
      if (isObject && object.additionalProperties !== false) open.push(`${where}: ${object.description?.slice(0, 40) ?? '(no description)'}`);
      for (const value of Object.values(schema)) walk(value, where);
    };
    type Operations = Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
    for (const [path, operations] of Object.entries(document.paths as Operations))
      for (const [method, operation] of Object.entries(operations))
        for (const [status, response] of Object.entries(operation.responses ?? {}))
          walk(response.content?.['application/json']?.schema, `${method} ${path} ${status}`);
    for (const [name, schema] of Object.entries((document.components as { schemas: Record<string, unknown> }).schemas)) walk(schema, name);
    expect(open.sort()).toEqual([
      'Event: The record as the API returns it (for de',
      'Event: Updates only (`….updated`): the record a',
      'PriceHistoryEntry: The record as the API showed it; null wh',
      'PriceHistoryEntry: The record as the API showed it; null wh',
      'get /v1/change-sets/{id}/operations 200: (no description)',
      'get /v1/change-sets/{id}/preview 200: (no description)',
    ]);
  });
});
