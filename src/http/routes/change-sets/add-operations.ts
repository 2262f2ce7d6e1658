import { AddOperationsRequest, ChangeSet, MAX_OPERATIONS_PER_SET, OPERATION_TYPES } from '../../../contract/change-sets.js';
import { IdParams } from '../../../contract/common.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import { type App, originOf, storeIdOf } from '../../app-types.js';
import { bulkShapeProblems } from '../../bulk-shape-problems.js';
import { operationShapes } from '../../operation-shapes.js';
import { createErrors } from '../docs.js';

export function addOperations(app: App, changeSets: ChangeSetService): void {
  app.post(
    '/v1/change-sets/:id/operations',
    {
      schema: {
        tags: ['change sets'],
        summary: 'Add 1–1000 operations to a change set, all or none',
        description:
          `Types: ${OPERATION_TYPES.join(', ')} (docs/change-sets.md, "Operations"). Each is checked against its type's fields and tried against the live book; a 422 lists every problem with the item's \`index\`, as a bulk create does. ` +
          `A set holds at most ${MAX_OPERATIONS_PER_SET}. Adding puts the set back to draft: a submission, an approval or a schedule no longer stands.`,
        params: IdParams,
        body: AddOperationsRequest,
        response: { 201: ChangeSet, ...createErrors },
      },
      config: { scope: ['trade_prices:write', 'trade_prices:read'] },
      attachValidation: true,
    },
    async (request, reply) => {
      const items = request.body as unknown[];
      const { operations, problems } = operationShapes(items, bulkShapeProblems(request.validationError));
      return reply.sendCreated(() => changeSets.addOperations(storeIdOf(request), originOf(request), request.params.id, operations, problems));
    },
  );
}
