import { AddOperationsRequest, ChangeSet, MAX_OPERATIONS_PER_SET, MAX_PRICES_PER_SET, OPERATION_TYPES } from '../../../contract/change-sets.js';
import { IdParams } from '../../../contract/common.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { bulkShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { operationShapes } from '../../plugins/operation-shapes.js';
import { createErrors } from '../docs.js';

export function addOperations(app: App, changeSets: ChangeSetService): void {
  app.post(
    '/v1/change-sets/:id/operations',
    {
      schema: {
        operationId: 'changeSets.addOperations',
        tags: ['change sets'],
        summary: 'Add 1–1000 operations to a change set, all or none',
        description:
          `Types: ${OPERATION_TYPES.join(', ')} (docs/change-sets.md, "Operations"). Each is checked against its type's fields and tried against the live book after the set's operations it depends on (docs/change-sets.md, "What an add checks"); a 422 lists every problem with the item's \`index\`, as a bulk create does. ` +
          `A set holds at most ${MAX_OPERATIONS_PER_SET} operations and ${MAX_PRICES_PER_SET} prices (a replace counts its prices). Adding puts the set back to draft: a submission, an approval or a schedule no longer stands.`,
        params: IdParams,
        body: AddOperationsRequest,
        response: { 201: ChangeSet, ...createErrors },
      },
      config: { scope: ['trade_prices:write', 'trade_prices:read'], priceChange: 'never' },
      attachValidation: true,
    },
    async (request, reply) => {
      const items = request.body as unknown[];
      const { operations, problems } = operationShapes(items, bulkShapeProblems(request.validationError));
      return reply.sendCreated(() => changeSets.addOperations(storeIdOf(request), originOf(request), request.params.id, operations, problems));
    },
  );
}
