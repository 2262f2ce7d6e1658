import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { suiteServer } from '../support/suite-server.js';

const CONNECTIONS = 4;
const REPLACES_PER_CONNECTION = 8;
const PRICES = 1000;

/**
 * The client, in a process of its own as a sync would be: CONNECTIONS kept-alive connections,
 * each sending its replaces one after another, the next as soon as the last answer is read.
 * Prints what it got: statuses and transport errors, by count.
 */
const CLIENT = `
import https from 'node:https';
import fs from 'node:fs';
const { port, token, bodies, perConnection } = JSON.parse(process.env.KEEP_ALIVE_CLIENT);
const agent = new https.Agent({ keepAlive: true, maxSockets: bodies.length, rejectUnauthorized: false });
const outcomes = {};
const note = (outcome) => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);
function send(body) {
  return new Promise((resolve) => {
    const request = https.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/trade-customer-product-prices/replace', agent,
      headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'content-length': body.length } }, (response) => {
      response.resume();
      response.on('end', () => { note(String(response.statusCode)); resolve(); });
      response.on('error', (error) => { note(error.code ?? error.message); resolve(); });
    });
    request.setTimeout(20000, () => request.destroy(new Error('timeout')));
    request.on('error', (error) => { note(error.code ?? error.message); resolve(); });
    request.end(body);
  });
}
await Promise.all(bodies.map(async (pair) => {
  const sent = pair.map((file) => fs.readFileSync(file));
  for (let k = 0; k < perConnection; k++) await send(sent[k % 2]);
}));
agent.destroy();
process.stdout.write(JSON.stringify(outcomes));
`;

/**
 * A kept-alive client that sends a large request right after reading a large answer, while the
 * server is busy with other connections, gets every answer (src/http/server/answer-buffer.ts): Node
 * used to fail such a request with a parser error (400, connection closed) when the answer
 * before it had not left the socket's buffer yet.
 */
describe('large requests after large answers on kept-alive connections', () => {
  const suite = suiteServer('sqlite', { tenants: 1 });

  it(`answers ${CONNECTIONS} connections each sending ${REPLACES_PER_CONNECTION} replaces of ${PRICES} prices back to back, every one 200`, async () => {
    const { token } = suite.tenant;
    const post = async <T>(urlPath: string, body: unknown): Promise<T> => {
      const response = await suite.api.request('POST', urlPath, { token, body });
      expect(response.status, response.text.slice(0, 300)).toBe(201);
      return response.body as T;
    };
    const product = await post<{ id: number }>('/v1/products', { title: 'Bolt', sku: 'KEEP-BOLT', price: 5 });
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-keep-alive-'));
    try {
      const bodies: string[][] = [];
      for (let connection = 0; connection < CONNECTIONS; connection++) {
        const customer = await post<{ id: number }>('/v1/customers', { email: `keep-${connection}@example.com`, trade: true });
        // Two sets in turn: each replace deletes the customer's 1000 prices and creates 1000 others.
        bodies.push(
          [0, 1].map((version) => {
            const prices = Array.from({ length: PRICES }, (_, k) => ({ productId: product.id, sku: 'KEEP-BOLT', price: version + 1, minQuantity: k + 1 }));
            const file = path.join(directory, `replace-${connection}-${version}.json`);
            fs.writeFileSync(file, JSON.stringify({ customerId: customer.id, scope: 'customer', prices }));
            return file;
          }),
        );
      }
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CLIENT], {
        env: { ...process.env, KEEP_ALIVE_CLIENT: JSON.stringify({ port: suite.server.port, token, bodies, perConnection: REPLACES_PER_CONNECTION }) },
        timeout: 100_000,
      });
      expect(JSON.parse(stdout)).toEqual({ 200: CONNECTIONS * REPLACES_PER_CONNECTION });
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
