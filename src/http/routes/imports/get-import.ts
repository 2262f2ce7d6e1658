import { FieldsOnlyQuery, IdParams } from '../../../contract/common.js';
import { Import } from '../../../contract/imports.js';
import type { ImportService } from '../../../modules/imports/import-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getImport(app: App, imports: ImportService): void {
  app.get(
    '/v1/imports/:id',
    {
      schema: {
        operationId: 'imports.get',
        tags: ['imports'],
        summary: 'An import: its status, progress, problems and result',
        params: IdParams,
        querystring: FieldsOnlyQuery,
        response: { 200: Import, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => imports.get(storeIdOf(request), request.params.id),
  );
}
