import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Pricebook } from '@pricebook/client';
import { type CliRun, runCli } from './cli-process.js';
import type { SuiteServer } from './suite-server.js';
import type { Tenant } from './test-server.js';

/** The built CLI's `pricebook prices …` against a suite's server, and what a test around it needs. */
export interface PricesCli {
  /** The typed client as the suite's tenant: to set a store up and to read what it stores. */
  readonly client: Pricebook;
  /** A scratch directory for the files the CLI reads and writes, removed after the suite. */
  readonly directory: string;
  /** The server's certificate, for `--cacert`. */
  readonly caFile: string;
  /** `pricebook prices ARGS --cacert …` as `tenant` (the suite's by default), URL and token from the environment. */
  readonly prices: (args: string[], tenant?: Tenant, timeoutMs?: number) => Promise<CliRun>;
  /** Writes a file of the scratch directory and returns its path. */
  readonly file: (name: string, content: string | Buffer) => string;
  /** Trade customers (`name-0@example.com`, …) and a product whose variations carry `skus`. */
  readonly catalog: (name: string, skus: string[], customers?: number) => Promise<{ customerIds: number[]; productId: number }>;
}

/** Makes the directory and the client before the suite's tests, and removes both after them. */
export function pricesCli(suite: SuiteServer, directoryPrefix: string): PricesCli {
  let directory = '';
  let client: Pricebook | undefined;
  beforeAll(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), directoryPrefix));
    fs.writeFileSync(path.join(directory, 'ca.pem'), suite.server.ca);
    client = new Pricebook({ baseUrl: suite.server.baseUrl, token: suite.tenant.token, ca: suite.server.ca });
  });
  afterAll(() => {
    client?.close();
    if (directory !== '') fs.rmSync(directory, { recursive: true, force: true });
  });
  const fixture: PricesCli = {
    get client() {
      if (client === undefined) throw new Error('the prices CLI fixture is used before its suite started');
      return client;
    },
    get directory() {
      return directory;
    },
    get caFile() {
      return path.join(directory, 'ca.pem');
    },
    prices: (args, tenant = suite.tenant, timeoutMs) =>
      runCli(
        ['prices', ...args, '--cacert', path.join(directory, 'ca.pem')],
        { PRICEBOOK_URL: suite.server.baseUrl, PRICEBOOK_TOKEN: tenant.token },
        timeoutMs,
      ),
    file: (name, content) => {
      const where = path.join(directory, name);
      fs.writeFileSync(where, content);
      return where;
    },
    catalog: async (name, skus, customers = 2) => {
      const customerIds: number[] = [];
      for (let index = 0; index < customers; index++)
        customerIds.push((await fixture.client.customers.create({ email: `${name}-${index}@example.com`, trade: true })).id);
      const product = await fixture.client.products.create({ title: name, price: 1, variations: skus.map((sku) => ({ sku })) });
      return { customerIds, productId: product.id };
    },
  };
  return fixture;
}
