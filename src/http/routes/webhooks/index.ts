import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import type { App } from '../../plugins/app-types.js';
import { countWebhooks } from './count-webhooks.js';
import { createWebhook } from './create-webhook.js';
import { deleteWebhook } from './delete-webhook.js';
import { getWebhook } from './get-webhook.js';
import { listWebhookDeliveries } from './list-webhook-deliveries.js';
import { listWebhooks } from './list-webhooks.js';
import { updateWebhook } from './update-webhook.js';
import { verifyWebhook } from './verify-webhook.js';

export function registerWebhookRoutes(app: App, webhooks: WebhookService): void {
  for (const register of [listWebhooks, countWebhooks, getWebhook, listWebhookDeliveries, createWebhook, updateWebhook, deleteWebhook, verifyWebhook])
    register(app, webhooks);
}
