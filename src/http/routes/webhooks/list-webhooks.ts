import { Type } from '@sinclair/typebox';
import { Webhook, WebhookListQuery } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, pageOf, principalOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listWebhooks(app: App, webhooks: WebhookService): void {
  app.get(
    '/v1/webhooks',
    {
      schema: {
        operationId: 'webhooks.list',
        tags: ['webhooks'],
        summary: 'List webhooks (never their secrets)',
        description: 'Only webhooks of the topics the credential may read; `topic=` naming another topic is a 403.',
        querystring: WebhookListQuery,
        response: { 200: Type.Array(Webhook), ...readErrors },
      },
      config: { scope: 'webhooks' },
    },
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.list(storeId, scopes, { topic: request.query.topic }, pageOf(request.query));
    },
  );
}
