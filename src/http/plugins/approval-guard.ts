import type { FastifyInstance } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import type { CredentialService } from '../../modules/stores/credential-service.js';
import { failWith } from './hook-outcome.js';
import { changesPrices, priceChangeCondition } from './price-change.js';
import './route-config.js';

const WRITES = new Set(['POST', 'PUT', 'DELETE']);

/**
 * The four-eyes rule for direct writes (docs/change-sets.md, "Approval"): where a store requires
 * approval, a request that changes what a customer pays, by the route's `priceChange`, is
 * refused (403, code 18) unless its credential has `trade_prices:direct` (which no staff role
 * has), before the body is validated or anything is read or changed. Change sets carry their
 * operations out through the same services, approved; dry runs and imports into a set change
 * nothing, and pass. Registered after the query is parsed (a dry run's `dryRun=true`).
 *
 * A route cannot forget to say: every POST, PUT and DELETE under `/v1/` (a staff session's own
 * aside) must declare `priceChange`, or registering it throws; its OpenAPI description then says
 * when it is refused.
 */
export function registerApprovalGuard(app: FastifyInstance, credentials: CredentialService): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/v1/') || !methods.some((method) => WRITES.has(method)) || route.config?.staffSession === true) return;
    const declared = route.config?.priceChange;
    if (declared === undefined)
      throw new Error(
        `${methods.join(',')} ${route.url} declares no config.priceChange: say whether it changes what a customer pays (src/http/plugins/price-change.ts)`,
      );
    const condition = priceChangeCondition(declared);
    if (route.schema === undefined || condition === undefined) return;
    const schema = route.schema as { description?: string };
    const sentence = `Where the store requires approval, refused (403, code 18) without \`trade_prices:direct\`: ${condition}.`;
    schema.description = schema.description === undefined ? sentence : `${schema.description} ${sentence}`;
  });

  // Synchronous for every request that changes no price; a price change asks the store.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.is404) return done();
    const declared = request.routeOptions.config.priceChange;
    const principal = request.principal;
    if (declared === undefined || principal === undefined || principal.scopes.has('trade_prices:direct')) return done();
    if (!changesPrices(declared, request)) return done();
    credentials
      .requiresApproval(principal.storeId)
      .then(
        (required) =>
          done(
            required
              ? new AppError(
                  'approval_required',
                  'This store requires approval of price changes: make this change in a change set (POST /v1/change-sets), which someone else approves before it applies. ' +
                    "Only a key with the scope 'trade_prices:direct' changes prices directly here",
                )
              : undefined,
          ),
        failWith(done),
      );
  });
}
