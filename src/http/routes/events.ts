import { Event, EventFeedQuery } from '../../contract/events.js';
import type { EventFeedService } from '../../modules/events/event-feed-service.js';
import { readableTopics } from '../../modules/events/topic-scopes.js';
import { type App, principalOf, storeIdOf } from '../plugins/app-types.js';
import { listOptions, type Resource } from './resource-routes.js';

const EVENTS: Resource = { path: '/v1/events', tag: 'events', one: 'an event', many: 'events' };

/** `/v1/events`: the event feed, read only. */
export function registerEventRoutes(app: App, events: EventFeedService): void {
  app.get(
    EVENTS.path,
    listOptions(EVENTS, {
      scope: 'webhooks',
      summary: 'The event feed: events after an id, ascending',
      description:
        'Poll with `after` = the last id seen. The same events webhooks deliver; each is kept at least 7 days. ' +
        'Only the topics the credential may read: customer, product and category events need `catalog:read`, trade price events `trade_prices:read`, order events `orders:read`.',
      querystring: EventFeedQuery,
      record: Event,
    }),
    async (request) => events.list(storeIdOf(request), request.query.after ?? 0, request.query.count ?? 50, readableTopics(principalOf(request).scopes)),
  );
}
