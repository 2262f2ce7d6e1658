import type { EventFeedService } from '../../../modules/events/event-feed-service.js';
import type { App } from '../../plugins/app-types.js';
import { listEvents } from './list-events.js';

export function registerEventRoutes(app: App, events: EventFeedService): void {
  listEvents(app, events);
}
