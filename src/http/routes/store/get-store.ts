import { StoreGetQuery, StoreResource } from '../../../contract/store.js';
import type { CredentialService } from '../../../modules/stores/credential-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

/** `GET /v1/store`: the credential's own store; it names no id, so another store's is never reached. */
export function registerStoreRoutes(app: App, credentials: CredentialService): void {
  app.get(
    '/v1/store',
    {
      schema: {
        operationId: 'store.get',
        tags: ['store'],
        summary: 'The store this credential belongs to: its name, currency, rounding and whether it requires approval',
        description:
          'Every amount the API answers (prices, quotes, orders) is in `currency`. Changed by `pricebook stores set-currency` (docs/pricing.md, "Rounding"). `requireApproval`: prices change through approved change sets (`pricebook stores set-approval`). No scope: any credential of the store reads it.',
        querystring: StoreGetQuery,
        response: { 200: StoreResource, ...readErrors },
      },
    },
    async (request) => {
      const { id, name, currency, rounding, requireApproval, createdAt } = await credentials.shownStore(storeIdOf(request));
      return { id, name, currency, rounding, requireApproval, createdAt };
    },
  );
}
