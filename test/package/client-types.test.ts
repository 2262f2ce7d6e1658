import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Static, TObject } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Generated from '../../packages/client/src/api-types.js';
import type * as Categories from '../../src/contract/categories.js';
import type { CountResponse, FieldsQuery, PageQuery } from '../../src/contract/common.js';
import type * as Customers from '../../src/contract/customers.js';
import type * as Errors from '../../src/contract/errors.js';
import type * as Events from '../../src/contract/events.js';
import type * as Imports from '../../src/contract/imports.js';
import type * as Orders from '../../src/contract/orders.js';
import type * as PriceLists from '../../src/contract/price-lists.js';
import type * as PricedSku from '../../src/contract/priced-sku.js';
import type * as Products from '../../src/contract/products.js';
import type * as Quotes from '../../src/contract/quotes.js';
import type * as TradePrices from '../../src/contract/trade-prices.js';
import type * as StoreContract from '../../src/contract/store.js';
import type * as Variations from '../../src/contract/variations.js';
import type * as Webhooks from '../../src/contract/webhooks.js';

/**
 * The client package's operations and types (packages/client/src/api-operations.ts and
 * api-types.ts) are generated from the OpenAPI document the server serves, so the packed client
 * needs nothing of the server. The checked-in files must be what the generator writes now (it
 * builds the document in its process and compares), and (checked by `npm run typecheck`, which
 * compiles this file) each generated type must be the schema's `Static` type exactly.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const GENERATOR = path.join(ROOT, 'scripts/generate-client.js');
const CLIENT_SOURCES = path.join(ROOT, 'packages/client/src');
const GENERATED = ['api-operations.ts', 'api-types.ts'];

function check(directory: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [GENERATOR, '--check', '--dir', directory], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the client package's generated operations and types", () => {
  it('are checked in as the generator writes them from the OpenAPI document now', () => {
    const run = check(CLIENT_SOURCES);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('generate-client: packages/client/src/api-operations.ts and packages/client/src/api-types.ts are up to date\n');
    expect(run.status).toBe(0);
  });

  it('a file that differs from a fresh generation fails the check, and is left as it was', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-client-generated-'));
    try {
      for (const file of GENERATED) fs.copyFileSync(path.join(CLIENT_SOURCES, file), path.join(directory, file));
      const stale = path.join(directory, 'api-types.ts');
      const text = fs.readFileSync(stale, 'utf8').replace('  email: string;', '  email?: string;');
      expect(text).not.toBe(fs.readFileSync(stale, 'utf8'));
      fs.writeFileSync(stale, text);
      fs.rmSync(path.join(directory, 'api-operations.ts'));
      const run = check(directory);
      expect(run.status).toBe(1);
      expect(run.stderr.split('\n').filter(Boolean)).toEqual(
        GENERATED.map((file) =>
          expect.stringMatching(new RegExp(`${file.replace('.', '\\.')} differs from what the OpenAPI document generates: run \`npm run generate:client\`$`)),
        ),
      );
      expect(fs.readFileSync(stale, 'utf8')).toBe(text);
      expect(fs.existsSync(path.join(directory, 'api-operations.ts'))).toBe(false);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('are the contract schemas’ own types (a compile-time check)', () => {
    expectTypeOf<Generated.PageOptions>().toEqualTypeOf<Static<TObject<typeof PageQuery>>>();
    expectTypeOf<Generated.FieldsOptions>().toEqualTypeOf<Static<TObject<typeof FieldsQuery>>>();
    expectTypeOf<Generated.CountResult>().toEqualTypeOf<Static<typeof CountResponse>>();
    expectTypeOf<Generated.FieldProblem>().toEqualTypeOf<Errors.FieldProblem>();
    expectTypeOf<Generated.ErrorBody>().toEqualTypeOf<Errors.ErrorBody>();
    expectTypeOf<Generated.Category>().toEqualTypeOf<Categories.Category>();
    expectTypeOf<Generated.CategoryInput>().toEqualTypeOf<Categories.CategoryInput>();
    expectTypeOf<Generated.CategoryUpdate>().toEqualTypeOf<Categories.CategoryUpdate>();
    expectTypeOf<Generated.CategoryListQuery>().toEqualTypeOf<Static<typeof Categories.CategoryListQuery>>();
    expectTypeOf<Generated.CategoryGetQuery>().toEqualTypeOf<Static<typeof Categories.CategoryGetQuery>>();
    expectTypeOf<Generated.Customer>().toEqualTypeOf<Customers.Customer>();
    expectTypeOf<Generated.CustomerInput>().toEqualTypeOf<Customers.CustomerInput>();
    expectTypeOf<Generated.CustomerUpdate>().toEqualTypeOf<Customers.CustomerUpdate>();
    expectTypeOf<Generated.CustomerListQuery>().toEqualTypeOf<Customers.CustomerListQuery>();
    expectTypeOf<Generated.CustomerCountQuery>().toEqualTypeOf<Static<typeof Customers.CustomerCountQuery>>();
    expectTypeOf<Generated.EventTopic>().toEqualTypeOf<Events.EventTopic>();
    // An event's `data` (and an update's `previous`) is any JSON object: `{ [key: string]: unknown }` rather than TypeBox's `{}`.
    expectTypeOf<Omit<Generated.Event, 'data' | 'previous'>>().toEqualTypeOf<Omit<Events.Event, 'data' | 'previous'>>();
    expectTypeOf<Generated.Event['data']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Generated.Event['previous']>().toEqualTypeOf<Record<string, unknown> | undefined>();
    expectTypeOf<Generated.EventFeedQuery>().toEqualTypeOf<Events.EventFeedQuery>();
    expectTypeOf<Generated.ImportMode>().toEqualTypeOf<Imports.ImportMode>();
    expectTypeOf<Generated.ImportStatus>().toEqualTypeOf<Imports.ImportStatus>();
    expectTypeOf<Generated.Import>().toEqualTypeOf<Imports.Import>();
    expectTypeOf<Generated.ImportError>().toEqualTypeOf<Imports.ImportError>();
    expectTypeOf<Generated.ImportQuery>().toEqualTypeOf<Imports.ImportQuery>();
    expectTypeOf<Generated.ImportResult>().toEqualTypeOf<Imports.ImportResult>();
    expectTypeOf<Generated.Order>().toEqualTypeOf<Orders.Order>();
    expectTypeOf<Generated.OrderInput>().toEqualTypeOf<Orders.OrderInput>();
    expectTypeOf<Generated.OrderLine>().toEqualTypeOf<Orders.OrderLine>();
    expectTypeOf<Generated.OrderListQuery>().toEqualTypeOf<Static<typeof Orders.OrderListQuery>>();
    expectTypeOf<Generated.OrderCountQuery>().toEqualTypeOf<Static<typeof Orders.OrderCountQuery>>();
    expectTypeOf<Generated.OrderGetQuery>().toEqualTypeOf<Static<typeof Orders.OrderGetQuery>>();
    expectTypeOf<Generated.PricedSkuInput>().toEqualTypeOf<PricedSku.PricedSkuInput>();
    expectTypeOf<Generated.PriceList>().toEqualTypeOf<PriceLists.PriceList>();
    expectTypeOf<Generated.PriceListInput>().toEqualTypeOf<PriceLists.PriceListInput>();
    expectTypeOf<Generated.PriceListUpdate>().toEqualTypeOf<PriceLists.PriceListUpdate>();
    expectTypeOf<Generated.PriceListListQuery>().toEqualTypeOf<PriceLists.PriceListListQuery>();
    expectTypeOf<Generated.PriceListCountQuery>().toEqualTypeOf<Static<typeof PriceLists.PriceListCountQuery>>();
    expectTypeOf<Generated.PriceListGetQuery>().toEqualTypeOf<Static<typeof PriceLists.PriceListGetQuery>>();
    expectTypeOf<Generated.PriceListPrice>().toEqualTypeOf<PriceLists.PriceListPrice>();
    expectTypeOf<Generated.Store>().toEqualTypeOf<StoreContract.StoreResource>();
    expectTypeOf<Generated.PriceListPriceInput>().toEqualTypeOf<PriceLists.PriceListPriceInput>();
    expectTypeOf<Generated.PriceListPriceListQuery>().toEqualTypeOf<PriceLists.PriceListPriceListQuery>();
    expectTypeOf<Generated.PriceListPriceCountQuery>().toEqualTypeOf<Static<typeof PriceLists.PriceListPriceCountQuery>>();
    expectTypeOf<Generated.Product>().toEqualTypeOf<Products.Product>();
    expectTypeOf<Generated.ProductInput>().toEqualTypeOf<Products.ProductInput>();
    expectTypeOf<Generated.ProductUpdate>().toEqualTypeOf<Products.ProductUpdate>();
    expectTypeOf<Generated.ProductListQuery>().toEqualTypeOf<Products.ProductListQuery>();
    expectTypeOf<Generated.ProductCountQuery>().toEqualTypeOf<Static<typeof Products.ProductCountQuery>>();
    expectTypeOf<Generated.Quote>().toEqualTypeOf<Quotes.Quote>();
    expectTypeOf<Generated.QuoteInput>().toEqualTypeOf<Quotes.QuoteInput>();
    expectTypeOf<Generated.TradePrice>().toEqualTypeOf<TradePrices.TradePrice>();
    expectTypeOf<Generated.TradePriceInput>().toEqualTypeOf<TradePrices.TradePriceInput>();
    expectTypeOf<Generated.TradePriceWithEmbeds>().toEqualTypeOf<Static<typeof TradePrices.TradePriceWithEmbeds>>();
    expectTypeOf<Generated.TradePriceListQuery>().toEqualTypeOf<TradePrices.TradePriceListQuery>();
    expectTypeOf<Generated.TradePriceCountQuery>().toEqualTypeOf<Static<typeof TradePrices.TradePriceCountQuery>>();
    expectTypeOf<Generated.TradePriceGetQuery>().toEqualTypeOf<Static<typeof TradePrices.TradePriceGetQuery>>();
    expectTypeOf<Generated.ReplaceTradePricesRequest>().toEqualTypeOf<TradePrices.ReplaceTradePricesRequest>();
    expectTypeOf<Generated.ReplaceTradePricesResult>().toEqualTypeOf<TradePrices.ReplaceTradePricesResult>();
    expectTypeOf<Generated.PriceCandidate>().toEqualTypeOf<TradePrices.PriceCandidate>();
    expectTypeOf<Generated.EffectivePrice>().toEqualTypeOf<TradePrices.EffectivePrice>();
    expectTypeOf<Generated.EffectivePriceQuery>().toEqualTypeOf<Static<typeof TradePrices.EffectivePriceQuery>>();
    expectTypeOf<Generated.Variation>().toEqualTypeOf<Variations.Variation>();
    expectTypeOf<Generated.VariationInput>().toEqualTypeOf<Variations.VariationInput>();
    expectTypeOf<Generated.VariationUpdate>().toEqualTypeOf<Variations.VariationUpdate>();
    expectTypeOf<Generated.VariationListQuery>().toEqualTypeOf<Static<typeof Variations.VariationListQuery>>();
    expectTypeOf<Generated.Webhook>().toEqualTypeOf<Webhooks.Webhook>();
    expectTypeOf<Generated.WebhookInput>().toEqualTypeOf<Webhooks.WebhookInput>();
    expectTypeOf<Generated.WebhookUpdate>().toEqualTypeOf<Webhooks.WebhookUpdate>();
    expectTypeOf<Generated.CreatedWebhook>().toEqualTypeOf<Webhooks.CreatedWebhook>();
    expectTypeOf<Generated.WebhookListQuery>().toEqualTypeOf<Webhooks.WebhookListQuery>();
  });
});
