import { Type } from '@sinclair/typebox';
import { Event, EventFeedQuery } from '../../../contract/events.js';
import type { EventFeedService } from '../../../modules/events/event-feed-service.js';
import { readableTopics } from '../../../modules/events/topic-scopes.js';
import { type App, principalOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listEvents(app: App, events: EventFeedService): void {
  app.get(
    '/v1/events',
    {
      schema: {
        operationId: 'events.list',
        tags: ['events'],
        summary: 'The event feed: events after an id, ascending',
        description:
          'Poll with `after` = the last id seen. The same events webhooks deliver; each is kept at least 7 days. ' +
          'Only the topics the credential may read: customer, product and category events need `catalog:read`, trade price events `trade_prices:read`, order events `orders:read`.',
        querystring: EventFeedQuery,
        response: { 200: Type.Array(Event), ...readErrors },
      },
      config: { scope: 'webhooks' },
    },
    async (request) => events.list(storeIdOf(request), request.query.after ?? 0, request.query.count ?? 50, readableTopics(principalOf(request).scopes)),
  );
}
