import { Type } from '@sinclair/typebox';
import { ChangeSet, ListedOperation, OperationListQuery } from '../../../contract/change-sets.js';
import { FieldsOnlyQuery, IdParams } from '../../../contract/common.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';
import { getOptions, itemPath, type Resource } from '../resource-routes.js';

export const CHANGE_SETS: Resource = { path: '/v1/change-sets', tag: 'change sets', operations: 'changeSets', one: 'a change set', many: 'change sets' };

export function getChangeSet(app: App, changeSets: ChangeSetService): void {
  app.get(itemPath(CHANGE_SETS), getOptions(CHANGE_SETS, { scope: 'trade_prices:read', querystring: FieldsOnlyQuery, record: ChangeSet }), async (request) =>
    changeSets.get(storeIdOf(request), request.params.id),
  );
  app.get(
    '/v1/change-sets/:id/operations',
    {
      schema: {
        operationId: 'changeSets.operations',
        tags: ['change sets'],
        summary: 'List a change set’s operations, in the order they apply',
        params: IdParams,
        querystring: OperationListQuery,
        response: { 200: Type.Array(ListedOperation), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => changeSets.operations(storeIdOf(request), request.params.id, pageOf(request.query)),
  );
}
