import { FieldsOnlyQuery } from '../../../contract/common.js';
import { Import } from '../../../contract/imports.js';
import type { ImportService } from '../../../modules/imports/import-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { getOptions, itemPath, type Resource } from '../resource-routes.js';

export const IMPORTS: Resource = { path: '/v1/imports', tag: 'imports', one: 'an import', many: 'imports' };

export function getImport(app: App, imports: ImportService): void {
  app.get(
    itemPath(IMPORTS),
    getOptions(IMPORTS, {
      scope: 'trade_prices:read',
      summary: 'An import: its status, progress, problems and result',
      querystring: FieldsOnlyQuery,
      record: Import,
    }),
    async (request) => imports.get(storeIdOf(request), request.params.id),
  );
}
