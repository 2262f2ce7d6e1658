import type { Readable } from 'node:stream';
import { IdParams } from '../../../contract/common.js';
import { ImportPriceListPricesQuery, MAX_LIST_IMPORT_BYTES, MAX_LIST_REPLACE_ITEMS, ReplacePriceListPricesResult } from '../../../contract/price-lists.js';
import { AppError } from '../../../modules/shared/errors.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { startFingerprint } from '../../plugins/idempotent-create.js';
import { readPieces } from '../../plugins/streamed-body.js';
import { createErrors } from '../docs.js';

const tooLarge = () =>
  new AppError(
    'body_too_large',
    `Request body is larger than ${MAX_LIST_IMPORT_BYTES / 2 ** 20} MiB, more than ${MAX_LIST_REPLACE_ITEMS} entries need: import fewer SKUs at a time`,
  );

export function importPriceListPrices(app: App, priceLists: PriceListService): void {
  app.post(
    '/v1/price-lists/:id/prices/import',
    {
      schema: {
        operationId: 'priceLists.prices.import',
        tags: ['price lists'],
        summary: 'Replace a fixed list’s entries from a CSV file, or see what that would change',
        description:
          'The body is the file itself (`Content-Type: text/csv`, UTF-8, up to 2 MiB): a header naming the columns (`sku` and `price` required; `min_quantity`, `valid_from`, `valid_until`, `quantity_minimum`, `quantity_maximum`, `quantity_increment` optional), then one entry a row, as the list’s download writes them. ' +
          'It is a replace (`POST …/prices/replace`) of `scope`: `skus` replaces the entries of the SKUs in the file and keeps the others (sending a file again changes nothing more); `list` makes the list’s entries exactly the file. `dryRun=true` answers the same and changes nothing. ' +
          `At most ${MAX_LIST_REPLACE_ITEMS} rows; a 422 lists every problem at its data row (\`index\`, from 0: row index + 2 of the file) and column. An \`Idempotency-Key\` replays the first answer. docs/pricing.md, "Importing a list's entries".`,
        params: IdParams,
        querystring: ImportPriceListPricesQuery,
        consumes: ['text/csv'],
        body: { type: 'string', description: 'The CSV file, UTF-8' },
        response: { 200: ReplacePriceListPricesResult, ...createErrors },
      },
      // The body is a stream, read below: there is nothing to validate up front.
      validatorCompiler: () => () => true,
      config: { scope: ['trade_prices:write', 'trade_prices:read'], bodyType: 'csv', priceChange: { unless: ['dryRun=true'] } },
    },
    async (request, reply) => {
      if (Number(request.headers['content-length']) > MAX_LIST_IMPORT_BYTES) throw tooLarge();
      const pieces: Buffer[] = [];
      let received = 0;
      const fingerprint = startFingerprint(request);
      await readPieces(request.body as Readable, async (piece) => {
        received += piece.length;
        if (received > MAX_LIST_IMPORT_BYTES) throw tooLarge();
        pieces.push(piece);
        fingerprint.update(piece);
      });
      request.bodyFingerprint = fingerprint.digest('hex');
      const csv = Buffer.concat(pieces);
      const storeId = storeIdOf(request);
      const { scope = 'skus', dryRun = false } = request.query;
      return reply.sendIdempotent(200, () => priceLists.importPrices(storeId, originOf(request), request.params.id, csv, { scope, dryRun }));
    },
  );
}
