import { Type } from '@sinclair/typebox';
import { ApplyRequest, ChangeSet } from '../../../contract/change-sets.js';
import { IdParams } from '../../../contract/common.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import type { Scope } from '../../../modules/stores/scopes.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors, writeErrors } from '../docs.js';

const EmptyBody = Type.Object({}, { additionalProperties: false, description: 'Body `{}`' });
const stepErrors = { ...writeErrors, 409: createErrors[409] };

/** The steps of a set's workflow that take no input: submit, approve, discard. */
const STEPS = [
  {
    path: 'submit',
    summary: 'Submit a change set for approval',
    description: 'draft (or failed) → submitted. Announced as `change_set.submitted`.',
    scope: ['trade_prices:write', 'trade_prices:read'],
    run: (service: ChangeSetService) => service.submit.bind(service),
  },
  {
    path: 'approve',
    summary: 'Approve a submitted change set',
    description:
      'submitted → approved, for the set’s current revision. Needs `trade_prices:approve` (the approver and owner roles). Where the store requires approval, someone who created, changed or submitted the set gets 403. Announced as `change_set.approved`.',
    scope: ['trade_prices:approve', 'trade_prices:read'],
    run: (service: ChangeSetService) => service.approve.bind(service),
  },
  {
    path: 'discard',
    summary: 'Discard a change set that is not applied',
    description: 'Any open state → discarded (a scheduled set is no longer applied). Its operations stay readable.',
    scope: ['trade_prices:write', 'trade_prices:read'],
    run: (service: ChangeSetService) => service.discard.bind(service),
  },
] as const;

export function changeSetSteps(app: App, changeSets: ChangeSetService): void {
  for (const step of STEPS) {
    const run = step.run(changeSets);
    app.post(
      `/v1/change-sets/:id/${step.path}`,
      {
        schema: {
          operationId: `changeSets.${step.path}`,
          tags: ['change sets'],
          summary: step.summary,
          description: step.description,
          params: IdParams,
          body: EmptyBody,
          response: { 200: ChangeSet, ...stepErrors },
        },
        config: { scope: step.scope as readonly Scope[], priceChange: 'never' },
      },
      async (request) => run(storeIdOf(request), originOf(request), request.params.id),
    );
  }

  app.post(
    '/v1/change-sets/:id/apply',
    {
      schema: {
        operationId: 'changeSets.apply',
        tags: ['change sets'],
        summary: 'Apply a change set now, or schedule it',
        description:
          'Body `{}`: applies every operation now, in one transaction, all or nothing; the answer is the applied set. `{"at": T}` with T in the future: the set is `scheduled`, and applied within 5 seconds after T by a server’s maintenance loop (exactly once). ' +
          'Where the store requires approval, only a set approved at its current revision may be applied or scheduled (409, code 17). When the live book refuses any operation (a record gone, a customer deleted), nothing changes, the set is `failed` with its `problems`, and the answer is 422, code 10, listing each problem with the operation’s `index` in the set.',
        params: IdParams,
        body: ApplyRequest,
        response: { 200: ChangeSet, ...stepErrors },
      },
      // The set's operations are carried out as approved: the store's approval rule is the set's own (docs/change-sets.md, "Approval").
      config: { scope: ['trade_prices:write', 'trade_prices:read'], priceChange: 'never' },
    },
    async (request) => changeSets.apply(storeIdOf(request), originOf(request), request.params.id, request.body.at),
  );

  app.post(
    '/v1/change-sets/:id/revert',
    {
      schema: {
        operationId: 'changeSets.revert',
        tags: ['change sets'],
        summary: 'Make a draft that takes an applied change set back',
        description:
          'Answers 201 with a new draft holding the exact inverse: records the set created are deleted, records it deleted restored with their own ids, customers’ lists and lists’ percentages set as they were, each only if still what the set left (a later change fails the revert’s apply, 422, rather than being overwritten). Preview, approve and apply it like any set; once applied, the original is `rolled_back` (`change_set.reverted`).',
        params: IdParams,
        body: EmptyBody,
        response: { 201: ChangeSet, ...stepErrors },
      },
      config: { scope: ['trade_prices:write', 'trade_prices:read'], priceChange: 'never' },
    },
    async (request, reply) => reply.sendCreated(() => changeSets.revert(storeIdOf(request), originOf(request), request.params.id)),
  );
}
