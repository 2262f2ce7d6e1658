import { Type } from '@sinclair/typebox';
import { PageOnlyQuery } from '../../../contract/common.js';
import { Import } from '../../../contract/imports.js';
import type { ImportService } from '../../../modules/imports/import-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listImports(app: App, imports: ImportService): void {
  app.get(
    '/v1/imports',
    {
      schema: {
        operationId: 'imports.list',
        tags: ['imports'],
        summary: 'List imports, oldest first',
        querystring: PageOnlyQuery,
        response: { 200: Type.Array(Import), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => imports.list(storeIdOf(request), pageOf(request.query)),
  );
}
