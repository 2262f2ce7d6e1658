import { CountResponse } from '../../../contract/common.js';
import type { ImportService } from '../../../modules/imports/import-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countImports(app: App, imports: ImportService): void {
  app.get(
    '/v1/imports/count',
    {
      schema: { operationId: 'imports.count', tags: ['imports'], summary: 'Count imports', response: { 200: CountResponse, ...readErrors } },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => ({ count: await imports.count(storeIdOf(request)) }),
  );
}
