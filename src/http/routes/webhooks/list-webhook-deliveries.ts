import { Type } from '@sinclair/typebox';
import { IdParams } from '../../../contract/common.js';
import { WebhookDelivery, WebhookDeliveryListQuery } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, principalOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listWebhookDeliveries(app: App, webhooks: WebhookService): void {
  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'webhooks.deliveries',
        tags: ['webhooks'],
        summary: 'A webhook’s deliveries, newest event first',
        description:
          'Each event the webhook was to receive: its status (pending, delivered, failed), the attempts made, the last answer’s HTTP status or error, ' +
          'and when it is tried next. Kept as long as its event (docs/webhooks.md). The credential must read the webhook’s topic: otherwise 403.',
        params: IdParams,
        querystring: WebhookDeliveryListQuery,
        response: { 200: Type.Array(WebhookDelivery), ...readErrors },
      },
      config: { scope: 'webhooks' },
    },
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.deliveries(storeId, scopes, request.params.id, { count: request.query.count ?? 20, offset: request.query.offset ?? 0 });
    },
  );
}
