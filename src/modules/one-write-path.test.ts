import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Every change of a trade price or a price list entry goes through one place
 * (`PricedRecordWrites`, through its instances `TradePriceWrites` and `PriceListEntryWrites`,
 * whose files alone name each kind's repository writes and events), so that a record of
 * changes kept there (the price history, a change set's rollback) cannot be bypassed. This
 * reads the sources: a call of a repository's write method, or an event of a price's creation
 * or deletion, anywhere else in `src/` fails here, with the file and the line.
 *
 * The price history has the same rule: only the writers below append to it, and every other
 * change it records (price lists, customers, products, variations) is written only by the
 * service that records it.
 */

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const WRITERS: Record<string, RegExp[]> = {
  'modules/trade-prices/trade-price-writes.ts': [
    /\.tradePrices\.(insertMany|deleteMany|delete|deleteBatchOf|restore)\(/,
    /'trade_customer_product_price\.(created|deleted)'/,
  ],
  'modules/price-lists/price-list-entry-writes.ts': [
    /\.priceLists\.(insertPrices|deletePrices?|deletePriceBatchOf|restorePrices)\(/,
    /'price_list_price\.(created|deleted)'/,
  ],
};

/** The files that append to the price history: the one price writer, the services of the other recorded changes, and the change sets' recorder of their steps. */
const HISTORY_WRITERS = [
  'modules/priced-records/priced-record-writes.ts',
  'modules/price-lists/price-list-service.ts',
  'modules/customers/customer-service.ts',
  'modules/customer-groups/customer-group-service.ts',
  'modules/catalog/product-service.ts',
  'modules/catalog/variation-service.ts',
  'modules/change-sets/change-set-recorder.ts',
];
const HISTORY_APPEND = /\.history\.append\(/;

/** The writes of the other recorded resources, and the one service each may stand in (it records them). */
const RECORDED_WRITES: Array<[RegExp, string]> = [
  [/\.priceLists\.(insert|update|delete)\(/, 'modules/price-lists/price-list-service.ts'],
  [/\.customers\.(insert|update|delete)\(/, 'modules/customers/customer-service.ts'],
  [/\.customerGroups\.(insert|update|delete)\(/, 'modules/customer-groups/customer-group-service.ts'],
  [/\.products\.(insert|update|delete)\(/, 'modules/catalog/product-service.ts'],
  [/\.variations\.(insertMany|update|deleteMany)\(/, 'modules/catalog/(product|variation)-service.ts'],
];

/** Where a price's event names may stand without being written: the list of topics, their scopes, and migration 011 (it ran once, before these writers existed). */
const NAMES_ONLY = ['contract/event-topics.ts', 'modules/events/topic-scopes.ts', 'storage/migrations/011-prices-of-lost-skus.ts'];

/**
 * A file's lines, with a line that continues a call chain (it starts with `.`, as the formatter
 * breaks `repos\n  .tradePrices\n  .insertMany(`) joined to the one it continues, each with the
 * number of its first line: a write broken over lines is still one line to match.
 */
function logicalLines(file: string): Array<{ line: string; at: number }> {
  const lines: Array<{ line: string; at: number }> = [];
  readFileSync(path.join(SRC, file), 'utf8')
    .split('\n')
    .forEach((line, at) => {
      const last = lines.at(-1);
      if (last !== undefined && /^\s*\??\./.test(line)) last.line += line.trim();
      else lines.push({ line, at: at + 1 });
    });
  return lines;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('one write path for prices', () => {
  const files = sources(SRC).map((file) => path.relative(SRC, file).split(path.sep).join('/'));

  it('finds the writers and the sources it reads', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const [writer, patterns] of Object.entries(WRITERS)) {
      const text = readFileSync(path.join(SRC, writer), 'utf8');
      for (const pattern of patterns) expect(pattern.test(text), `${writer} ${pattern}`).toBe(true);
    }
  });

  it('no other file writes a trade price or a list entry, or announces one written', () => {
    const found: string[] = [];
    for (const file of files) {
      // The client and the admin page call the API (whose routes come here), not repositories.
      if (file in WRITERS || file.startsWith('storage/repositories/') || file.startsWith('client/') || file.startsWith('admin/')) continue;
      for (const { line, at } of logicalLines(file)) {
        for (const [writer, patterns] of Object.entries(WRITERS)) {
          const [write, topic] = patterns as [RegExp, RegExp];
          const announces = topic.test(line) && !NAMES_ONLY.includes(file) && !/^\s*(\*|\/\/)/.test(line);
          if (write.test(line) || announces) found.push(`${file}:${at} (only ${writer} may): ${line.trim()}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('only the designated writers append to the price history', () => {
    for (const writer of HISTORY_WRITERS) expect(HISTORY_APPEND.test(readFileSync(path.join(SRC, writer), 'utf8')), writer).toBe(true);
    const found: string[] = [];
    for (const file of files) {
      if (HISTORY_WRITERS.includes(file) || file.startsWith('storage/repositories/')) continue;
      for (const { line, at } of logicalLines(file)) if (HISTORY_APPEND.test(line)) found.push(`${file}:${at}: ${line.trim()}`);
    }
    expect(found).toEqual([]);
  });

  it('lists, customers, products and variations are written only by the services that record them', () => {
    const found: string[] = [];
    for (const file of files) {
      if (file.startsWith('storage/') || file.startsWith('client/') || file.startsWith('admin/')) continue;
      for (const { line, at } of logicalLines(file)) {
        for (const [write, owner] of RECORDED_WRITES) {
          if (write.test(line) && !new RegExp(`^${owner}$`).test(file)) found.push(`${file}:${at} (only ${owner} may): ${line.trim()}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
