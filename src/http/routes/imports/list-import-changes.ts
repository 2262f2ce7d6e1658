import { IdParams } from '../../../contract/common.js';
import { ImportChanges, ImportChangesQuery } from '../../../contract/imports.js';
import type { ImportService } from '../../../modules/imports/import-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { stateReadErrors } from '../docs.js';

export function listImportChanges(app: App, imports: ImportService): void {
  app.get(
    '/v1/imports/:id/changes',
    {
      schema: {
        operationId: 'imports.changes',
        tags: ['imports'],
        summary: 'What a dry run would change: each price created, deleted or changed (old → new), paged',
        description:
          'Only for a dry run that succeeded, among the store’s 20 newest (409, code 17, for a real run, one queued, running or failed, or an older dry run, whose changes were dropped). ' +
          'The first 10 000 changes a dry run finds are kept, listed by customer id, SKU (by code point), break and the order found; `complete` is false when the dry run would change more ' +
          '(its `result` counts them all). Kept as long as the import.',
        params: IdParams,
        querystring: ImportChangesQuery,
        response: { 200: ImportChanges, ...stateReadErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => {
      const { offset = 0, count = 50 } = request.query;
      return imports.changes(storeIdOf(request), request.params.id, { offset, count });
    },
  );
}
