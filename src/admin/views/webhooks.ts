import type { Webhook, WebhookDelivery, WebhookInput } from '@pricebook/client/browser';
import { EVENT_TOPICS } from '../../contract/event-topics.js';
import { collect } from '../collect.js';
import { formatMoment, h, replaceChildren, table } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { Form } from '../forms.js';
import { actionButton, alertBox, section, type View } from '../view.js';

/** Deliveries a page shows. */
const DELIVERIES_PAGE = 20;

const DELIVERY_STATUS: Readonly<Record<WebhookDelivery['status'], string>> = {
  pending: 'Waiting (to be tried again)',
  delivered: 'Delivered',
  failed: 'Failed: gave up',
};

/**
 * The store's webhooks with their state (active, verified), verification again, activation,
 * deletion, and a form that creates one (its signing secret is shown once). Deliveries one by
 * one are not shown: the API has no endpoint for them (see docs/admin.md).
 */
export const webhooksView: View = async (context) => {
  context.heading('Webhooks');
  const alert = alertBox();
  const list = h('div', {}, h('p', {}, 'Loading webhooks…'));
  const secret = h('div', { class: 'notice', role: 'status', hidden: true });
  const load = async (): Promise<void> => {
    const webhooks = await collect(context.api.webhooks.iterate());
    replaceChildren(
      list,
      webhooks.length === 0
        ? h('p', {}, 'No webhooks yet.')
        : table(
            'Webhooks',
            ['Topic', 'URL', 'Active', 'Verified', 'Created', 'Actions'],
            webhooks.map((webhook) => [
              webhook.topic,
              h('span', { class: 'url' }, webhook.url),
              webhook.active ? 'Yes' : 'No: disabled (by the store, a 410 answer, or after every retry failed)',
              webhook.verified ? 'Yes' : 'No: gets no events until its receiver answers the handshake',
              formatMoment(webhook.createdAt),
              h(
                'div',
                { class: 'row-actions' },
                actionButton('Deliveries', () => showDeliveries(webhook, 0), alert, { 'aria-label': `Show the deliveries of webhook #${webhook.id}` }),
                actionButton(
                  'Verify again',
                  async () => {
                    const verified = await context.api.webhooks.verify(webhook.id);
                    context.announce(
                      verified.verified ? 'The receiver answered the handshake: verified' : 'The receiver did not answer the handshake: not verified',
                    );
                    await load();
                  },
                  alert,
                  { 'aria-label': `Verify again: webhook #${webhook.id}` },
                ),
                actionButton(
                  webhook.active ? 'Deactivate' : 'Activate',
                  async () => {
                    await context.api.webhooks.update(webhook.id, { active: !webhook.active });
                    context.announce(webhook.active ? 'Webhook deactivated' : 'Webhook activated, its failures cleared');
                    await load();
                  },
                  alert,
                  { 'aria-label': `${webhook.active ? 'Deactivate' : 'Activate'} webhook #${webhook.id}` },
                ),
                actionButton(
                  'Delete',
                  async () => {
                    if (
                      !(await confirmAction({
                        title: 'Delete this webhook?',
                        details: [`${webhook.url} then gets no more ${webhook.topic} events; deliveries under way end.`],
                        confirmLabel: 'Delete webhook',
                      }))
                    )
                      return;
                    await context.api.webhooks.delete(webhook.id);
                    context.announce('Webhook deleted');
                    await load();
                  },
                  alert,
                  { 'aria-label': `Delete webhook #${webhook.id}` },
                ),
              ),
            ]),
          ),
    );
  };
  const deliveries = h(
    'div',
    {},
    h(
      'p',
      {},
      '“Deliveries” on a webhook shows its latest: each event it was to receive, whether it arrived, after how many attempts, and when the next is due.',
    ),
  );
  /** A webhook's deliveries, newest event first, 20 a page. */
  const showDeliveries = async (webhook: Webhook, offset: number): Promise<void> => {
    const page = await context.api.webhooks.deliveries(webhook.id, { count: DELIVERIES_PAGE + 1, offset });
    const shown = page.slice(0, DELIVERIES_PAGE);
    const more = page.length > DELIVERIES_PAGE;
    const older = h('button', { type: 'button', hidden: !more }, 'Older deliveries');
    const newer = h('button', { type: 'button', hidden: offset === 0 }, 'Newer deliveries');
    older.addEventListener('click', () => void showDeliveries(webhook, offset + DELIVERIES_PAGE).catch((error: unknown) => alert.show(error)));
    newer.addEventListener('click', () => void showDeliveries(webhook, Math.max(0, offset - DELIVERIES_PAGE)).catch((error: unknown) => alert.show(error)));
    replaceChildren(
      deliveries,
      h('h3', {}, `Webhook #${webhook.id}: ${webhook.topic} to `, h('span', { class: 'url' }, webhook.url)),
      shown.length === 0
        ? h('p', {}, 'No deliveries yet: none of its events has happened since it was verified.')
        : table(
            `Deliveries of webhook #${webhook.id}, newest first`,
            ['Event', 'Status', 'Attempts', 'Last answer', 'Next try', 'Created', 'Ended'],
            shown.map((delivery) => [
              `#${delivery.eventId}`,
              DELIVERY_STATUS[delivery.status],
              String(delivery.attempts),
              delivery.status === 'delivered' ? 'a 2xx' : delivery.lastStatus !== null ? `HTTP ${delivery.lastStatus}` : (delivery.lastError ?? '—'),
              formatMoment(delivery.nextAttemptAt),
              formatMoment(delivery.createdAt),
              formatMoment(delivery.finishedAt),
            ]),
          ),
      h('div', { class: 'actions' }, newer, older),
    );
    context.announce(`${shown.length} deliveries of webhook #${webhook.id} shown`);
  };
  const form = new Form({
    label: 'Create a webhook',
    submitLabel: 'Create webhook',
    fields: [
      { name: 'topic', label: 'Topic', type: 'select', options: EVENT_TOPICS.map((topic) => ({ value: topic, label: topic })), value: EVENT_TOPICS[0] },
      {
        name: 'url',
        label: 'Receiver URL',
        type: 'url',
        inputmode: 'url',
        hint: 'https:// and a public address. The receiver must answer the verification handshake (up to 5 s).',
      },
    ],
    onSubmit: async (form) => {
      // The topic is one of the select's, the URL as typed: the API judges it (a 422 shown at its field).
      const created = await context.api.webhooks.create({ topic: form.value('topic'), url: form.value('url') } as WebhookInput);
      form.setValue('url', '');
      secret.hidden = false;
      replaceChildren(
        secret,
        h(
          'p',
          {},
          `Webhook #${created.id} created (${created.verified ? 'verified' : 'not verified: the receiver did not answer the handshake'}). Its signing secret, shown only now:`,
        ),
        h('p', {}, h('code', { class: 'secret' }, created.secret)),
      );
      await load();
    },
  });
  context.main.append(alert, section('All webhooks', list), section('Create a webhook', form.element, secret), section('Deliveries', deliveries));
  await load();
};
