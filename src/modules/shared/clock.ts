/** The time, behind an interface so tests can move it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoTimestamp(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
