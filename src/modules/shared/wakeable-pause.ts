/**
 * How a background loop sleeps between rounds: `sleep(ms)` resolves after `ms`, or at once
 * when `wake()` is called (to stop, or because there is work), whichever comes first.
 */
export class WakeablePause {
  private wakeUp: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  /** Ends the sleep under way, if any. */
  wake(): void {
    this.wakeUp?.();
  }
}
