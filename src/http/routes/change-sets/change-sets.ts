import { Type } from '@sinclair/typebox';
import {
  AddOperationsRequest,
  ChangeSet,
  ChangeSetInput,
  ChangeSetListQuery,
  ListedOperation,
  MAX_OPERATIONS_PER_SET,
  MAX_PRICES_PER_SET,
  OPERATION_TYPES,
  OperationListQuery,
} from '../../../contract/change-sets.js';
import { FieldsOnlyQuery, IdParams } from '../../../contract/common.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import { type App, originOf, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { bulkShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { operationShapes } from '../../plugins/operation-shapes.js';
import { createErrors, readErrors } from '../docs.js';
import { countOptions, createOptions, getOptions, itemPath, listOptions, type Resource } from '../resource-routes.js';

const CHANGE_SETS: Resource = { path: '/v1/change-sets', tag: 'change sets', operations: 'changeSets', one: 'a change set', many: 'change sets' };

/** A change set's own operations: its record, its list and count, and its operations read and added (its steps and preview are beside). */
export function registerSetRoutes(app: App, changeSets: ChangeSetService): void {
  const write = { scope: ['trade_prices:write', 'trade_prices:read'], priceChange: 'never' } as const;

  app.post(
    CHANGE_SETS.path,
    createOptions(CHANGE_SETS, {
      ...write,
      summary: 'Start a change set: a draft of price changes to preview, approve and apply together',
      description: 'An empty draft; add operations with `POST /v1/change-sets/{id}/operations`. See docs/change-sets.md.',
      body: ChangeSetInput,
      record: ChangeSet,
    }),
    async (request, reply) => reply.sendCreated(() => changeSets.create(storeIdOf(request), originOf(request), request.body)),
  );

  app.get(
    CHANGE_SETS.path,
    listOptions(CHANGE_SETS, { scope: 'trade_prices:read', summary: 'List change sets, by id', querystring: ChangeSetListQuery, record: ChangeSet }),
    async (request) => changeSets.list(storeIdOf(request), request.query.state, pageOf(request.query)),
  );

  app.get(
    `${CHANGE_SETS.path}/count`,
    countOptions(CHANGE_SETS, {
      scope: 'trade_prices:read',
      querystring: Type.Object({ state: ChangeSetListQuery.properties.state }, { additionalProperties: false }),
    }),
    async (request) => ({ count: await changeSets.count(storeIdOf(request), request.query.state) }),
  );

  app.get(itemPath(CHANGE_SETS), getOptions(CHANGE_SETS, { scope: 'trade_prices:read', querystring: FieldsOnlyQuery, record: ChangeSet }), async (request) =>
    changeSets.get(storeIdOf(request), request.params.id),
  );

  app.get(
    `${itemPath(CHANGE_SETS)}/operations`,
    {
      schema: {
        operationId: 'changeSets.operations',
        tags: [CHANGE_SETS.tag],
        summary: 'List a change set’s operations, in the order they apply',
        params: IdParams,
        querystring: OperationListQuery,
        response: { 200: Type.Array(ListedOperation), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => changeSets.operations(storeIdOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    `${itemPath(CHANGE_SETS)}/operations`,
    {
      schema: {
        operationId: 'changeSets.addOperations',
        tags: [CHANGE_SETS.tag],
        summary: 'Add 1–1000 operations to a change set, all or none',
        description:
          `Types: ${OPERATION_TYPES.join(', ')} (docs/change-sets.md, "Operations"). Each is checked against its type's fields and tried against the live book after the set's operations it depends on (docs/change-sets.md, "What an add checks"); a 422 lists every problem with the item's \`index\`, as a bulk create does. ` +
          `A set holds at most ${MAX_OPERATIONS_PER_SET} operations and ${MAX_PRICES_PER_SET} prices (a replace counts its prices). Adding puts the set back to draft: a submission, an approval or a schedule no longer stands.`,
        params: IdParams,
        body: AddOperationsRequest,
        response: { 201: ChangeSet, ...createErrors },
      },
      config: { ...write },
      attachValidation: true,
    },
    async (request, reply) => {
      const items = request.body as unknown[];
      const { operations, problems } = operationShapes(items, bulkShapeProblems(request.validationError));
      return reply.sendCreated(() => changeSets.addOperations(storeIdOf(request), originOf(request), request.params.id, operations, problems));
    },
  );
}
