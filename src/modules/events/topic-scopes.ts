import { EVENT_TOPICS, type EventTopic, TOPIC_READ_SCOPES } from '../../contract/events.js';
import { AppError } from '../shared/errors.js';
import type { Scope } from '../stores/scopes.js';

/**
 * The scope that reads the records a topic's events carry. An event is the record as the API
 * returns it, so the feed and webhooks show a topic only to a credential that may read its
 * records anyway: `webhooks` alone reads nothing. Declared beside each topic in
 * `contract/event-topics.ts`; here it is typed as a scope.
 */
export const READ_SCOPE_OF_TOPIC: Readonly<Record<EventTopic, Scope>> = TOPIC_READ_SCOPES satisfies Record<EventTopic, Scope>;

/** The topics whose events a credential with `scopes` may read. */
export function readableTopics(scopes: ReadonlySet<Scope>): EventTopic[] {
  return EVENT_TOPICS.filter((topic) => scopes.has(READ_SCOPE_OF_TOPIC[topic]));
}

/** 403 (code 4) unless `scopes` may read `topic`'s events. */
export function assertTopicReadable(scopes: ReadonlySet<Scope>, topic: EventTopic): void {
  const scope = READ_SCOPE_OF_TOPIC[topic];
  if (!scopes.has(scope)) throw new AppError('forbidden', `This credential lacks the scope '${scope}' that reads the events of '${topic}'`);
}
