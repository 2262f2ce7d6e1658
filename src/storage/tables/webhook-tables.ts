import type { Generated } from 'kysely';

/* Webhooks: the subscriptions, the outbox of events, and each event's deliveries. */

/** A webhook subscription. The secret is kept readable (not hashed): every delivery is signed with it. */
export interface WebhooksTable {
  id: Generated<number>;
  store_id: number;
  topic: string;
  url: string;
  /** `whsec_` + base64 of the HMAC key. */
  secret: string;
  active: number;
  verified: number;
  /** Failed attempts since the last success (or re-activation). */
  failure_count: Generated<number>;
  /** Milliseconds since the epoch of the last successful delivery. */
  last_success_at: number | null;
  created_at: string;
}

/** The outbox: one row per change, written in the change's own transaction. */
export interface EventsTable {
  id: Generated<number>;
  store_id: number;
  topic: string;
  subject_id: number;
  /** The record as the API returns it, JSON. */
  data: string;
  /** An update's record as it was before, JSON (migration 017); null for other events. */
  previous: string | null;
  created_at: string;
  /** 1 once its deliveries have been created. */
  fanned_out: Generated<number>;
}

/** One event for one webhook: attempts, schedule and the lease of the worker sending it. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  store_id: number;
  event_id: number;
  webhook_id: number;
  /** `pending`, `delivered` or `failed` (retries used up, or the webhook was disabled). */
  status: string;
  attempts: number;
  /** Milliseconds since the epoch. */
  next_attempt_at: number;
  /** Milliseconds; while in the future, one worker owns the delivery. */
  lease_until: number | null;
  lease_token: string | null;
  /** HTTP status of the last attempt, if it got one. */
  last_status: number | null;
  last_error: string | null;
  /** Milliseconds since the epoch. */
  created_at: number;
  finished_at: number | null;
}

/** Webhooks and the events they deliver: this area's tables, by name (composed into `Tables`). */
export interface WebhookTables {
  webhooks: WebhooksTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
