import type { AttemptVerdict } from './delivery-queue.js';
import type { AttemptOutcome } from './webhook-sender.js';

/**
 * What follows attempt number `attempt` (1 for the first). A failed attempt n is followed,
 * the n-th delay of the schedule (seconds) later, by attempt n + 1; the delivery gives up
 * after as many failed attempts as the schedule has entries (24 by default), so its last
 * delay is never waited.
 */
export function verdictAfter(attempt: number, outcome: AttemptOutcome, scheduleSeconds: readonly number[], at: number): AttemptVerdict {
  if (outcome.delivered) return { kind: 'delivered' };
  if (outcome.status === 410) return { kind: 'gone' };
  const delay = scheduleSeconds[attempt - 1];
  if (attempt >= scheduleSeconds.length || delay === undefined) return { kind: 'exhausted' };
  return { kind: 'retry', nextAttemptAt: at + Math.round(delay * 1000) };
}
