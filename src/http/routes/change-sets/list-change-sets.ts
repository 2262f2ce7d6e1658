import { Type } from '@sinclair/typebox';
import { ChangeSet, ChangeSetListQuery } from '../../../contract/change-sets.js';
import { CountResponse } from '../../../contract/common.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listChangeSets(app: App, changeSets: ChangeSetService): void {
  app.get(
    '/v1/change-sets',
    {
      schema: {
        operationId: 'changeSets.list',
        tags: ['change sets'],
        summary: 'List change sets, by id',
        querystring: ChangeSetListQuery,
        response: { 200: Type.Array(ChangeSet), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => changeSets.list(storeIdOf(request), request.query.state, pageOf(request.query)),
  );
  app.get(
    '/v1/change-sets/count',
    {
      schema: {
        operationId: 'changeSets.count',
        tags: ['change sets'],
        summary: 'Count change sets',
        querystring: Type.Object({ state: ChangeSetListQuery.properties.state }, { additionalProperties: false }),
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => ({ count: await changeSets.count(storeIdOf(request), request.query.state) }),
  );
}
