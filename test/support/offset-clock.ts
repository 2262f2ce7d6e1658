import type { Clock } from '../../src/modules/shared/clock.js';

/**
 * The real time plus an offset the test moves forward. It keeps running between moves: the
 * delivery worker batches its writes by the clock, and a clock that stood still would hold them.
 */
export class OffsetClock implements Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
