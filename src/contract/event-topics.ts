// No import: the admin page loads this file in the browser as it is (scripts/build-admin.js).

/** Every kind of change announced by an event, as webhook topics name them. */
export const EVENT_TOPICS = [
  'trade_customer_product_price.created',
  'trade_customer_product_price.deleted',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer_group.created',
  'customer_group.updated',
  'customer_group.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'order.created',
  'price_list.created',
  'price_list.updated',
  'price_list.deleted',
  'price_list_price.created',
  'price_list_price.deleted',
  'import.succeeded',
  'import.failed',
  'change_set.submitted',
  'change_set.approved',
  'change_set.applied',
  'change_set.failed',
  'change_set.reverted',
] as const;

export type EventTopic = (typeof EVENT_TOPICS)[number];

export function isEventTopic(value: string): value is EventTopic {
  return (EVENT_TOPICS as readonly string[]).includes(value);
}
