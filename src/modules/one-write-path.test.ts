import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Every change of a trade price or a price list entry goes through one place
 * (`TradePriceWrites`, `PriceListEntryWrites`), so that a record of changes kept there (a
 * price history, a change set's rollback) cannot be bypassed. This reads the sources: a call
 * of a repository's write method, or an event of a price's creation or deletion, anywhere
 * else in `src/` fails here, with the file and the line.
 */

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const WRITERS: Record<string, RegExp[]> = {
  'modules/trade-prices/trade-price-writes.ts': [/\.tradePrices\.(insertMany|deleteMany|delete|deleteBatchOf)\(/, /'trade_customer_product_price\.(created|deleted)'/],
  'modules/price-lists/price-list-entry-writes.ts': [/\.priceLists\.(insertPrices|deletePrice|deletePriceBatchOf)\(/, /'price_list_price\.(created|deleted)'/],
};

/** Where a price's event names may stand without being written: the list of topics, their scopes, the admin page's topic picker, and migration 011 (it ran once, before these writers existed). */
const NAMES_ONLY = ['contract/events.ts', 'modules/events/topic-scopes.ts', 'admin/views/webhooks.ts', 'storage/migrations/011-prices-of-lost-skus.ts'];

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
      const lines = readFileSync(path.join(SRC, file), 'utf8').split('\n');
      lines.forEach((line, at) => {
        for (const [writer, patterns] of Object.entries(WRITERS)) {
          const [write, topic] = patterns as [RegExp, RegExp];
          const announces = topic.test(line) && !NAMES_ONLY.includes(file) && !/^\s*(\*|\/\/)/.test(line);
          if (write.test(line) || announces) found.push(`${file}:${at + 1} (only ${writer} may): ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
