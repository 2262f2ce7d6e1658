import { ChangeSetPreview, type PreviewRow, PreviewQuery } from '../../../contract/change-sets.js';
import { IdParams } from '../../../contract/common.js';
import { csvText } from '../../../csv/csv-text.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import { nextTurn } from '../../../modules/shared/long-work.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

const CSV_COLUMNS = ['kind', 'resource', 'id', 'customer_id', 'price_list_id', 'sku', 'min_quantity', 'price', 'before', 'after'] as const;
/** Rows written as CSV between two turns of the event loop. */
const CSV_ROWS_PER_TURN = 2000;

export function previewChangeSet(app: App, changeSets: ChangeSetService): void {
  app.get(
    '/v1/change-sets/:id/preview',
    {
      schema: {
        operationId: 'changeSets.preview',
        tags: ['change sets'],
        summary: 'See what a change set would do: records created, deleted, updated, and what customers would pay before and after',
        description:
          'Worked out against the live book at `at` (default: the scheduled moment, or now) by carrying the set out and undoing it at once, so `problems` are what an apply would meet now; kept while the set, the store’s book and the moment’s prices are unchanged, so the next page or the CSV does not work it out again. ' +
          'Rows: `created`, `deleted` and `updated` records, then one `price` row for each affected customer, SKU and quantity break, with the effective price `before` and `after`. Paged with `count` and `offset`; `format=csv` answers every row as a CSV file.',
        params: IdParams,
        querystring: PreviewQuery,
        response: { 200: ChangeSetPreview, ...createErrors },
      },
      // The rows show catalog prices the rule falls back to, as an effective price does.
      config: { scope: ['trade_prices:read', 'catalog:read'] },
    },
    async (request, reply) => {
      const { rows, ...preview } = await changeSets.preview(storeIdOf(request), request.params.id, request.query.at);
      if (request.query.format === 'csv') {
        // Tens of thousands of rows: written a slice at a time, each a stretch of work of its own.
        const parts = [csvText([[...CSV_COLUMNS]])];
        for (let start = 0; start < rows.length; start += CSV_ROWS_PER_TURN) {
          parts.push(csvText(rows.slice(start, start + CSV_ROWS_PER_TURN).map(csvRow)));
          await nextTurn();
        }
        return (
          reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="change-set-${preview.changeSetId}-preview.csv"`)
            // Text, not the JSON the response schema types: `never` lets it past the type provider.
            .send(parts.join('') as never)
        );
      }
      const page = pageOf(request.query);
      return { ...preview, total: rows.length, rows: rows.slice(page.offset, page.offset + page.count) };
    },
  );
}

function csvRow(row: PreviewRow): string[] {
  const record = (row.record ?? {}) as Record<string, unknown>;
  const text = (value: unknown) =>
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value as string | number);
  // An update's record is `{id, priceListIds | percentage: {before, after}}`.
  const change = (record.priceListIds ?? record.percentage) as { before: unknown; after: unknown } | undefined;
  return [
    row.kind,
    row.resource ?? '',
    text(record.id),
    text(row.customerId),
    text(record.priceListId),
    text(row.sku),
    text(row.minQuantity ?? record.minQuantity),
    text(record.price),
    text(change === undefined ? row.before : change.before),
    text(change === undefined ? row.after : change.after),
  ];
}
