import { ChangeSet, ChangeSetInput } from '../../../contract/change-sets.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createChangeSet(app: App, changeSets: ChangeSetService): void {
  app.post(
    '/v1/change-sets',
    {
      schema: {
        operationId: 'changeSets.create',
        tags: ['change sets'],
        summary: 'Start a change set: a draft of price changes to preview, approve and apply together',
        description: 'An empty draft; add operations with `POST /v1/change-sets/{id}/operations`. See docs/change-sets.md.',
        body: ChangeSetInput,
        response: { 201: ChangeSet, ...createErrors },
      },
      config: { scope: ['trade_prices:write', 'trade_prices:read'], priceChange: 'never' },
    },
    async (request, reply) => reply.sendCreated(() => changeSets.create(storeIdOf(request), originOf(request), request.body)),
  );
}
