import type { WebhookInput } from '@pricebook/client/browser';
import type { EventTopic } from '../../contract/events.js';
import { collect } from '../collect.js';
import { formatMoment, h, replaceChildren, table } from '../dom.js';
import { Form } from '../forms.js';
import { actionButton, alertBox, section, type View } from '../view.js';

/**
 * Every topic, in the contract's order (the page ships no contract code, only its types): a
 * record of them all, so the page fails to compile when the contract gains a topic it lacks.
 */
const TOPIC_SET: Readonly<Record<EventTopic, true>> = {
  'trade_customer_product_price.created': true,
  'trade_customer_product_price.deleted': true,
  'customer.created': true,
  'customer.updated': true,
  'customer.deleted': true,
  'customer_group.created': true,
  'customer_group.updated': true,
  'customer_group.deleted': true,
  'product.created': true,
  'product.updated': true,
  'product.deleted': true,
  'category.created': true,
  'category.updated': true,
  'category.deleted': true,
  'order.created': true,
  'price_list.created': true,
  'price_list.updated': true,
  'price_list.deleted': true,
  'price_list_price.created': true,
  'price_list_price.deleted': true,
  'import.succeeded': true,
  'import.failed': true,
  'change_set.submitted': true,
  'change_set.approved': true,
  'change_set.applied': true,
  'change_set.failed': true,
  'change_set.reverted': true,
};
const TOPICS = Object.keys(TOPIC_SET) as EventTopic[];

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
                actionButton(
                  'Verify again',
                  async () => {
                    const verified = await context.api.webhooks.verify(webhook.id);
                    context.announce(verified.verified ? 'The receiver answered the handshake: verified' : 'The receiver did not answer the handshake: not verified');
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
                    if (!confirm(`Delete the webhook for ${webhook.topic} to ${webhook.url}?`)) return;
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
  const form = new Form({
    label: 'Create a webhook',
    submitLabel: 'Create webhook',
    fields: [
      { name: 'topic', label: 'Topic', type: 'select', options: TOPICS.map((topic) => ({ value: topic, label: topic })), value: TOPICS[0] ?? '' },
      { name: 'url', label: 'Receiver URL', type: 'url', inputmode: 'url', hint: 'https:// and a public address. The receiver must answer the verification handshake (up to 5 s).' },
    ],
    onSubmit: async (form) => {
      // The topic is one of the select's, the URL as typed: the API judges it (a 422 shown at its field).
      const created = await context.api.webhooks.create({ topic: form.value('topic'), url: form.value('url') } as WebhookInput);
      form.setValue('url', '');
      secret.hidden = false;
      replaceChildren(
        secret,
        h('p', {}, `Webhook #${created.id} created (${created.verified ? 'verified' : 'not verified: the receiver did not answer the handshake'}). Its signing secret, shown only now:`),
        h('p', {}, h('code', { class: 'secret' }, created.secret)),
      );
      await load();
    },
  });
  context.main.append(
    alert,
    section('All webhooks', list),
    section('Create a webhook', form.element, secret),
    section(
      'Deliveries',
      h(
        'p',
        {},
        'The API has no list of deliveries, so this page shows each webhook’s state instead: it is inactive once its retries are used up or its receiver answered 410, and unverified until its receiver answers the handshake. Every event (delivered or not) is in the feed, GET /v1/events.',
      ),
    ),
  );
  await load();
};
