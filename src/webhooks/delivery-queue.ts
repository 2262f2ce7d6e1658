import type { Event } from '../contract/events.js';

/** A delivery leased to one worker: it alone may send it until the lease ends. */
export interface ClaimedDelivery {
  id: number;
  /** Proves the lease when the outcome is recorded. */
  leaseToken: string;
  /** When the lease ends, milliseconds since the epoch. */
  leaseUntil: number;
  /** Attempts made before this one. */
  attempts: number;
  /** When it was fanned out, milliseconds since the epoch. */
  createdAt: number;
  webhook: { id: number; url: string; secret: string };
  event: Event;
}

export type AttemptVerdict =
  /** 2xx: done. */
  | { kind: 'delivered' }
  /** Failed; tried again at `nextAttemptAt` (milliseconds). */
  | { kind: 'retry'; nextAttemptAt: number }
  /** Failed its last attempt: the webhook is disabled unless a delivery to it succeeded since this one began. */
  | { kind: 'exhausted' }
  /** 410 Gone: the receiver asks to stop, the webhook is disabled at once. */
  | { kind: 'gone' };

export interface AttemptRecord {
  delivery: ClaimedDelivery;
  verdict: AttemptVerdict;
  /** When the attempt ended, milliseconds. */
  at: number;
  httpStatus: number | undefined;
  error: string | undefined;
}

export interface ClaimOptions {
  /** Milliseconds since the epoch. */
  now: number;
  limit: number;
  /** Leased deliveries per webhook at most, across workers. */
  leasesPerWebhook: number;
  /** Deliveries of one store this worker may hold, waiting and in flight, at most. */
  heldPerStore: number;
  /** What this worker already holds, by store. */
  heldByStore: ReadonlyMap<number, number>;
  /** The lease ends this many milliseconds from now. */
  leaseMs: number;
  /** Deliveries this worker has finished but not recorded yet: they no longer count as leased. */
  settledIds: readonly number[];
}

/** The deliveries table, as the worker uses it. Each method is one short transaction. */
export interface DeliveryQueue {
  /**
   * Creates the deliveries of up to `limit` events not yet fanned out, for the webhooks that
   * are active and verified now; returns how many events it took.
   */
  fanOut(limit: number, now: number): Promise<number>;
  /**
   * Leases due deliveries, round-robin over the stores that have some (within a store, the
   * webhooks due longest first), so a store with a large backlog cannot fill a claim. On
   * PostgreSQL concurrent workers skip each other's rows.
   */
  claim(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /** Ends the leases of deliveries not sent after all, so any worker may take them at once. */
  release(deliveries: readonly ClaimedDelivery[]): Promise<void>;
  /** Writes the outcomes of finished attempts; a record whose lease was lost is ignored. */
  record(attempts: readonly AttemptRecord[]): Promise<void>;
  /** Deletes up to `limit` events created before `before` (ISO), with their deliveries. */
  purge(before: string, limit: number): Promise<number>;
}
