import { expect } from 'vitest';
import type { HttpResponse, RequestOptions, TestServer } from './test-server.js';

/**
 * What every response of the API must look like, whatever the request: never a 5xx; a JSON
 * Content-Type on every body; an error body with exactly an integer `code` and a string
 * `message`, plus `errors` on a 422 only; a 204 without a body.
 */
export function expectWellFormed(response: HttpResponse, method = 'GET'): void {
  expect(response.status, `5xx: ${response.text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status === 204 || method === 'HEAD') {
    expect(response.text).toBe('');
    return;
  }
  expect(response.headers['content-type']).toMatch(/^application\/json(;|$)/);
  expect(response.body, `not JSON: ${response.text.slice(0, 300)}`).toBeDefined();
  if (response.status >= 400) expectErrorShape(response);
}

export function expectErrorShape(response: HttpResponse): void {
  const body = response.body as Record<string, unknown>;
  expect(typeof body === 'object' && body !== null && !Array.isArray(body), response.text).toBe(true);
  expect(Object.keys(body).sort()).toEqual(response.status === 422 ? ['code', 'errors', 'message'] : ['code', 'message']);
  expect(Number.isInteger(body.code)).toBe(true);
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  if (response.status === 422) {
    expect(Array.isArray(body.errors)).toBe(true);
    for (const problem of body.errors as Array<Record<string, unknown>>) {
      expect(problem.field === null || typeof problem.field === 'string').toBe(true);
      expect(typeof problem.message).toBe('string');
    }
  }
}

/** The status and `code` of an error answer, and its shape. */
export function expectError(response: HttpResponse, status: number, code: number, message?: RegExp): void {
  expect({ status: response.status, code: (response.body as { code?: unknown } | undefined)?.code }, response.text.slice(0, 300)).toEqual({ status, code });
  expectWellFormed(response);
  if (message !== undefined) expect((response.body as { message: string }).message).toMatch(message);
}

export interface CheckedClient {
  request(method: string, urlPath: string, options?: RequestOptions): Promise<HttpResponse>;
  plainRequest(method: string, urlPath: string, options?: RequestOptions): Promise<HttpResponse>;
}

/** The test server's requests, each answer checked with `expectWellFormed`. */
export function checkedClient(server: TestServer): CheckedClient {
  return {
    async request(method, urlPath, options) {
      const response = await server.request(method, urlPath, options);
      expectWellFormed(response, method);
      return response;
    },
    async plainRequest(method, urlPath, options) {
      const response = await server.plainRequest(method, urlPath, options);
      expectWellFormed(response, method);
      return response;
    },
  };
}

/** `Authorization: Basic base64(key:secret)`. */
export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`, 'utf8').toString('base64')}`;
}

/** The number of customers the tenant's store holds, asked over HTTPS. */
export async function customerCount(server: TestServer, token: string): Promise<number> {
  const response = await server.request('GET', '/v1/customers/count', { token });
  expect(response.status).toBe(200);
  return (response.body as { count: number }).count;
}
