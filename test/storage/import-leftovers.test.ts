import { describe, expect, it } from 'vitest';
import type { ClaimedImport } from '../../src/modules/imports/import-repository.js';
import { CLI_ORIGIN } from '../../src/modules/history/change-records.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * What an import leaves behind (staged prices, file slices, a dry run's changes) is deleted a
 * bounded batch at a time, along each table's key: a batch deletes exactly its limit while more
 * are left, then the rest, then nothing. An import that staged more than one batch is cleaned up
 * whole, and one taken up again starts from nothing.
 */
describe.each(await enginesUnderTest())('an import’s leftovers deleted in batches on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });

  it('deletes staged prices, file slices and changes a batch at a time, each to the last row', async () => {
    const { imports, importContents: repos } = suite.server.services.uow.repos;
    const storeId = suite.tenant.storeId;
    const id = await imports.beginUpload(storeId, { mode: 'replace', dryRun: true }, CLI_ORIGIN, new Date().toISOString());
    const claim = { id, storeId } as ClaimedImport;
    const rows = 5003;
    await repos.stage(
      claim,
      Array.from({ length: rows }, (_, index) => ({
        position: index + 1,
        customerId: 1,
        productId: 1,
        sku: `SKU-${index}`,
        price: 1.5,
        minQuantity: 1,
        validFrom: null,
        validUntil: null,
      })),
    );
    await repos.recordChanges(
      claim,
      Array.from({ length: rows }, (_, index) => ({
        seq: index + 1,
        kind: 'created' as const,
        customerId: 1,
        sku: `SKU-${index}`,
        minQuantity: 1,
        validFrom: null,
        validUntil: null,
        before: null,
        after: 1.5,
        tradePriceId: null,
      })),
    );
    for (let seq = 0; seq < 10; seq++) await repos.appendChunk(id, storeId, seq, Buffer.from(`slice ${seq}\n`));

    expect([await repos.deleteStaged(id, 5000), await repos.deleteStaged(id, 5000), await repos.deleteStaged(id, 5000)]).toEqual([5000, 3, 0]);
    expect([await repos.deleteChanges(id, 5000), await repos.deleteChanges(id, 5000), await repos.deleteChanges(id, 5000)]).toEqual([5000, 3, 0]);
    expect([await repos.deleteChunks(id, 8), await repos.deleteChunks(id, 8), await repos.deleteChunks(id, 8)]).toEqual([8, 2, 0]);
    const { db } = suite.server.services.database;
    for (const table of ['import_rows', 'import_changes', 'import_file_chunks'] as const) {
      expect(
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('import_id', '=', id)
              .executeTakeFirstOrThrow()
          ).n,
        ),
        table,
      ).toBe(0);
    }
  });
});
