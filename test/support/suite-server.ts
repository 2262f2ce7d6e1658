import { afterAll, beforeAll } from 'vitest';
import { type CatalogFixture, createCatalog } from './catalog-fixture.js';
import { checkedClient, type CheckedClient } from './conventions.js';
import type { EngineName } from './engines.js';
import { startTestServer, type Tenant, type TestServer, type TestServerOptions } from './test-server.js';

export interface SuiteServer {
  server: TestServer;
  /** `checkedClient(server)`: every answer checked with `expectWellFormed`. */
  api: CheckedClient;
  /** The store the tests act as. */
  tenant: Tenant;
  /** A second store, whose records `tenant` must never reach, nor it `tenant`'s. */
  other: Tenant;
  /** A catalog in `tenant`'s store (with `catalogs: true`). */
  catalog: CatalogFixture;
  /** A catalog in `other`'s store (with `catalogs: true`). */
  foreign: CatalogFixture;
}

export interface SuiteServerOptions extends TestServerOptions {
  /** The environment passed to `startTestServer`. */
  env?: Record<string, string>;
  /** How many of `tenant` and `other` to make, in that order. Default both. */
  tenants?: 0 | 1 | 2;
  /** Also make `catalog` and `foreign` with `createCatalog` (needs both tenants). */
  catalogs?: boolean;
}

/**
 * One test server for the enclosing describe block: a `beforeAll` starts it on `engine` and
 * makes its tenants (and catalogs), an `afterAll` closes it. Hooks the block registers after
 * this call run after these in `beforeAll`, and before the close in `afterAll`.
 *
 * The fields are read inside hooks and tests; read before the `beforeAll` has run, or when not
 * asked for, they throw.
 */
export function suiteServer(engine: EngineName, options: SuiteServerOptions = {}): SuiteServer {
  const { env = {}, tenants = 2, catalogs = false, ...serverOptions } = options;
  if (catalogs && tenants < 2) throw new Error('suiteServer: catalogs need both tenants');
  let server: TestServer | undefined;
  let api: CheckedClient | undefined;
  const made: Tenant[] = [];
  const catalogsMade: CatalogFixture[] = [];

  beforeAll(async () => {
    server = await startTestServer(engine, env, serverOptions);
    api = checkedClient(server);
    for (let index = 0; index < tenants; index++) made.push(await server.createTenant());
    if (catalogs) {
      for (const owner of made) catalogsMade.push(await createCatalog(server, owner));
    }
  });
  afterAll(() => server?.close());

  return {
    get server() {
      return ready(server, 'server');
    },
    get api() {
      return ready(api, 'api');
    },
    get tenant() {
      return ready(made[0], 'tenant');
    },
    get other() {
      return ready(made[1], 'other');
    },
    get catalog() {
      return ready(catalogsMade[0], 'catalog');
    },
    get foreign() {
      return ready(catalogsMade[1], 'foreign');
    },
  };
}

function ready<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new Error(`suiteServer: ${field} is not there (read before its beforeAll ran, or not asked for)`);
  return value;
}
