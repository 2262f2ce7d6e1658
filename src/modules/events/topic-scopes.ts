import { EVENT_TOPICS, type EventTopic } from '../../contract/events.js';
import { AppError } from '../shared/errors.js';
import type { Scope } from '../stores/scopes.js';

/**
 * The scope that reads the records a topic's events carry. An event is the record as the API
 * returns it, so the feed and webhooks show a topic only to a credential that may read its
 * records anyway: `webhooks` alone reads nothing.
 */
export const READ_SCOPE_OF_TOPIC: Readonly<Record<EventTopic, Scope>> = {
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
};

/** The topics whose events a credential with `scopes` may read. */
export function readableTopics(scopes: ReadonlySet<Scope>): EventTopic[] {
  return EVENT_TOPICS.filter((topic) => scopes.has(READ_SCOPE_OF_TOPIC[topic]));
}

/** 403 (code 4) unless `scopes` may read `topic`'s events. */
export function assertTopicReadable(scopes: ReadonlySet<Scope>, topic: EventTopic): void {
  const scope = READ_SCOPE_OF_TOPIC[topic];
  if (!scopes.has(scope)) throw new AppError('forbidden', `This credential lacks the scope '${scope}' that reads the events of '${topic}'`);
}
