import { percentile } from './report.js';

/** How often the watch's timer asks for a turn, ms. */
export const LOOP_WATCH_INTERVAL_MS = 10;

export interface LoopFigures {
  /** Longest wait of the watch's timer beyond its interval, ms of wall time, and its 99th percentile. */
  heldMs: number;
  heldP99Ms: number;
  /**
   * Most processor time the main thread spent between two turns of the timer, beyond the
   * interval, ms: the loop's own work in one stretch, whatever else the machine was running.
   */
  busyMs: number;
}

/**
 * Watches this process's event loop: a timer asks for a turn every 10 ms and notes how late it
 * came (wall time: includes waiting for the disk, and for a processor when the machine is busy)
 * and how much processor time the main thread used meanwhile (`process.threadCpuUsage`: the
 * work the loop itself did, which a busy machine does not inflate).
 */
export class LoopWatch {
  private readonly lateness: number[] = [];
  private busyMs = 0;
  private lastWall = 0;
  private lastCpuMs = 0;
  private timer: NodeJS.Timeout | undefined;

  start(): void {
    this.lastWall = performance.now();
    this.lastCpuMs = threadCpuMs();
    this.timer = setInterval(() => this.tick(), LOOP_WATCH_INTERVAL_MS);
  }

  stop(): LoopFigures {
    clearInterval(this.timer);
    this.tick();
    return {
      heldMs: this.lateness.length === 0 ? 0 : Math.max(...this.lateness),
      heldP99Ms: this.lateness.length === 0 ? 0 : percentile(this.lateness, 0.99),
      busyMs: this.busyMs,
    };
  }

  private tick(): void {
    const wall = performance.now();
    const cpuMs = threadCpuMs();
    this.lateness.push(Math.max(0, wall - this.lastWall - LOOP_WATCH_INTERVAL_MS));
    this.busyMs = Math.max(this.busyMs, cpuMs - this.lastCpuMs - LOOP_WATCH_INTERVAL_MS);
    this.lastWall = wall;
    this.lastCpuMs = cpuMs;
  }
}

/** User and system processor time of the main thread, ms. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}
