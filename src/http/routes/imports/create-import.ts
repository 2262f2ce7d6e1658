import { Import, ImportQuery } from '../../../contract/imports.js';
import type { ImportService } from '../../../modules/imports/import-service.js';
import { namesCustomersByEmail } from '../../../modules/imports/import-header.js';
import { type App, requireScope, storeIdOf } from '../../app-types.js';
import { createErrors } from '../docs.js';

export function createImport(app: App, imports: ImportService): void {
  app.post(
    '/v1/imports',
    {
      schema: {
        tags: ['imports'],
        summary: 'Import trade prices from a CSV file (up to 50 MiB); answered at once, worked in the background',
        description:
          'The body is the file itself (`Content-Type: text/csv`), in the long format (`customer_id,sku,price[,min_quantity,valid_from,valid_until]`) or the matrix (`sku,<customer id or e-mail>,…`): docs/imports.md. ' +
          'Answered 202 with the import; poll `GET /v1/imports/{id}` until `status` is `succeeded` or `failed`. A file with any problem changes nothing and lists them (row and column). ' +
          '`mode=add` creates every price; `mode=replace` gives each customer of the file exactly its prices. `dryRun=true` counts what would change. An `Idempotency-Key` replays the first answer. ' +
          'A matrix whose header names a customer by e-mail also needs `catalog:read` (it looks customers up by e-mail); reading the outcome (`GET /v1/imports/{id}`) needs `trade_prices:read`.',
        querystring: ImportQuery,
        consumes: ['text/csv'],
        body: { type: 'string', description: 'The CSV file, UTF-8' },
        response: { 202: Import, ...createErrors },
      },
      config: { scope: 'trade_prices:write', bodyType: 'csv' },
    },
    async (request, reply) => {
      const csv = request.body as string;
      if (namesCustomersByEmail(csv)) requireScope(request, 'catalog:read', 'a matrix naming customers by e-mail');
      const storeId = storeIdOf(request);
      const { mode = 'add', dryRun = false } = request.query;
      return reply.sendIdempotent(202, () => imports.create(storeId, csv, { mode, dryRun }));
    },
  );
}
