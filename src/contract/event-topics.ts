// No import: the admin page loads this file in the browser as it is (scripts/build-admin.js).

/**
 * Every kind of change announced by an event, as webhook topics name them, each with the scope
 * that reads the records its events carry (checked against the scopes in
 * `modules/events/topic-scopes.ts`). A new topic is declared here only: the list and the type
 * of topics come from this table, in its order.
 */
export const TOPIC_READ_SCOPES = {
  'trade_customer_product_price.created': 'trade_prices:read',
  'trade_customer_product_price.deleted': 'trade_prices:read',
  'customer.created': 'catalog:read',
  'customer.updated': 'catalog:read',
  'customer.deleted': 'catalog:read',
  'customer_group.created': 'trade_prices:read',
  'customer_group.updated': 'trade_prices:read',
  'customer_group.deleted': 'trade_prices:read',
  'product.created': 'catalog:read',
  'product.updated': 'catalog:read',
  'product.deleted': 'catalog:read',
  'category.created': 'catalog:read',
  'category.updated': 'catalog:read',
  'category.deleted': 'catalog:read',
  'order.created': 'orders:read',
  'price_list.created': 'trade_prices:read',
  'price_list.updated': 'trade_prices:read',
  'price_list.deleted': 'trade_prices:read',
  'price_list_price.created': 'trade_prices:read',
  'price_list_price.deleted': 'trade_prices:read',
  'import.succeeded': 'trade_prices:read',
  'import.failed': 'trade_prices:read',
  'change_set.submitted': 'trade_prices:read',
  'change_set.approved': 'trade_prices:read',
  'change_set.applied': 'trade_prices:read',
  'change_set.failed': 'trade_prices:read',
  'change_set.reverted': 'trade_prices:read',
} as const;

export type EventTopic = keyof typeof TOPIC_READ_SCOPES;

/** Every topic, in the order of `TOPIC_READ_SCOPES`. */
export const EVENT_TOPICS: readonly EventTopic[] = Object.keys(TOPIC_READ_SCOPES) as EventTopic[];

export function isEventTopic(value: string): value is EventTopic {
  return (EVENT_TOPICS as readonly string[]).includes(value);
}
