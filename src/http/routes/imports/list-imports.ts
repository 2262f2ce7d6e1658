import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../../contract/common.js';
import { Import } from '../../../contract/imports.js';
import type { ImportService } from '../../../modules/imports/import-service.js';
import { type App, pageOf, storeIdOf } from '../../app-types.js';
import { readErrors } from '../docs.js';

export function listImports(app: App, imports: ImportService): void {
  app.get(
    '/v1/imports',
    {
      schema: {
        tags: ['imports'],
        summary: 'List imports, oldest first',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: Type.Array(Import), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => imports.list(storeIdOf(request), pageOf(request.query)),
  );
}
