import cliProgress from 'cli-progress';

/** Where progress goes: the process's stderr, or a stand-in in tests. */
export interface ProgressStream {
  write(text: string): boolean;
  isTTY?: boolean;
}

/** Milliseconds between two plain progress lines, at least. */
const LINE_INTERVAL_MS = 1000;

/**
 * Progress of a long command on stderr: a bar with an ETA on a terminal (cli-progress), else
 * plain lines (`import 7: checking rows, 2000/10000 (20%), ETA 12s`), at most one a second and
 * only when something moved, so logs stay short.
 */
export class ProgressReporter {
  private bar: cliProgress.SingleBar | undefined;
  private lastLineAt = -Infinity;
  private lastLine = '';
  private first: { at: number; value: number } | undefined;
  private latest: { phase: string; value: number; total: number | null } | undefined;
  private readonly startedAt: number;

  /** `quietMs`: nothing is shown before this long has passed, so quick commands stay quiet. */
  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
    private readonly now: () => number = Date.now,
    private readonly quietMs = 0,
  ) {
    this.startedAt = now();
  }

  /** `total` null: not known yet. */
  update(phase: string, value: number, total: number | null): void {
    this.latest = { phase, value, total };
    if (this.quietMs > 0 && this.now() - this.startedAt < this.quietMs) return;
    if (this.stream.isTTY === true) this.draw(phase, value, total);
    else this.line(phase, value, total, false);
  }

  /**
   * The work is done: what was shown ends at its last state, at 100% when its total was reached
   * (a plain line is written even within a second of the one before). Shows nothing when nothing was.
   */
  finish(): void {
    const latest = this.latest;
    if (latest === undefined) return;
    if (this.bar !== undefined) this.draw(latest.phase, latest.value, latest.total);
    else if (this.lastLine !== '') this.line(latest.phase, latest.value, latest.total, true);
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }

  private draw(phase: string, value: number, total: number | null): void {
    const at = this.now();
    this.first ??= { at, value };
    const eta = total === null ? undefined : this.eta(at, value, total);
    // Our own ETA (cli-progress's `{eta_formatted}` prints "LLs" for an ETA it cannot compute yet).
    const payload = { phase, etaText: eta === undefined ? '' : ` | ETA ${eta}` };
    if (this.bar === undefined) {
      this.bar = new cliProgress.SingleBar(
        {
          stream: this.stream as NodeJS.WritableStream,
          format: `${this.label} {phase} [{bar}] {percentage}% | {value}/{total}{etaText}`,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(total ?? 0, value, payload);
      return;
    }
    if (total !== null) this.bar.setTotal(total);
    this.bar.update(value, payload);
  }

  private line(phase: string, value: number, total: number | null, force: boolean): void {
    const at = this.now();
    this.first ??= { at, value };
    const counted = total === null ? `${value}` : `${value}/${total} (${total === 0 ? 100 : Math.floor((100 * value) / total)}%)`;
    const eta = total === null ? undefined : this.eta(at, value, total);
    const text = `${this.label}: ${phase}, ${counted}${eta === undefined ? '' : `, ETA ${eta}`}`;
    if ((!force && at - this.lastLineAt < LINE_INTERVAL_MS) || text === this.lastLine) return;
    this.stream.write(`${text}\n`);
    this.lastLine = text;
    this.lastLineAt = at;
  }

  /** The time left at the rate seen since the first update, as `1h2m`, `3m4s` or `5s`. */
  private eta(at: number, value: number, total: number): string | undefined {
    const first = this.first!;
    const done = value - first.value;
    if (done <= 0 || value >= total || at <= first.at) return undefined;
    const seconds = Math.ceil((((total - value) / done) * (at - first.at)) / 1000);
    if (seconds >= 3600) return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
    if (seconds >= 60) return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
    return `${seconds}s`;
  }
}
