import { describe, expect, it } from 'vitest';
import { ProgressReporter, type ProgressStream } from '../../src/main/prices/progress-reporter.js';

function stream(isTTY: boolean): ProgressStream & { text: () => string } {
  const chunks: string[] = [];
  return { isTTY, columns: 120, write: (chunk: string) => chunks.push(chunk) > 0, text: () => chunks.join('') } as ProgressStream & { text: () => string };
}

describe('progress on stderr', () => {
  it('writes plain lines when stderr is not a terminal: at most one a second, with an ETA once it has a rate', () => {
    let now = 0;
    const out = stream(false);
    const progress = new ProgressReporter(out, 'import 7', () => now);
    for (let processed = 0; processed <= 10_000; processed += 500) {
      progress.update(processed < 10_000 ? 'checking rows' : 'succeeded', processed, 10_000);
      now += 250;
    }
    progress.stop();
    const lines = out
      .text()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines[0]).toBe('import 7: checking rows, 0/10000 (0%)');
    expect(lines[1]).toBe('import 7: checking rows, 2000/10000 (20%), ETA 4s');
    expect(lines.length).toBe(6);
    expect(out.text()).not.toContain('\u001b[');
  });

  it('stays quiet for its first quietMs: a quick command shows no progress', () => {
    let now = 0;
    const out = stream(false);
    const progress = new ProgressReporter(out, 'export', () => now, 1000);
    progress.update('reading prices', 100, 300);
    now = 900;
    progress.update('reading prices', 200, 300);
    expect(out.text()).toBe('');
    now = 1000;
    progress.update('reading prices', 300, 300);
    expect(out.text()).toBe('export: reading prices, 300/300 (100%)\n');
  });

  it('draws a bar on a terminal, with an ETA once it has a rate and none before (never a broken one)', () => {
    let now = 0;
    const out = stream(true);
    const progress = new ProgressReporter(out, 'import 7', () => now);
    progress.update('checking rows', 0, 10_000);
    now = 2000;
    progress.update('checking rows', 5000, 10_000);
    progress.stop();
    // The first frame has no ETA (no rate yet): the bar's count ends it.
    expect(out.text()).toMatch(/import 7 checking rows \[[░]+\] 0% \| 0\/10000(?! \|)/);
    expect(out.text()).toMatch(/import 7 checking rows \[[█░]+\] 50% \| 5000\/10000 \| ETA 2s/);
    expect(out.text()).not.toMatch(/LLs|NULL|INF/);
    expect(out.text()).toContain('\u001b[');
  });

  it('finish ends at the last state, 100% when the total was reached, even within a second of the last line', () => {
    let now = 0;
    const out = stream(false);
    const progress = new ProgressReporter(out, 'diff', () => now);
    progress.update('comparing customers', 0, 33);
    now = 1500;
    progress.update('comparing customers', 32, 33);
    now = 1600;
    progress.update('comparing customers', 33, 33);
    progress.finish();
    progress.stop();
    expect(
      out
        .text()
        .split('\n')
        .filter((line) => line !== ''),
    ).toEqual(['diff: comparing customers, 0/33 (0%)', 'diff: comparing customers, 32/33 (96%), ETA 1s', 'diff: comparing customers, 33/33 (100%)']);

    const bar = stream(true);
    const drawn = new ProgressReporter(bar, 'diff', () => now);
    drawn.update('comparing customers', 32, 33);
    drawn.update('comparing customers', 33, 33);
    drawn.finish();
    drawn.stop();
    expect(bar.text()).toMatch(/diff comparing customers \[█+\] 100% \| 33\/33/);
  });

  it('finish shows nothing when nothing was shown (a quick command stays quiet)', () => {
    let now = 0;
    const out = stream(false);
    const progress = new ProgressReporter(out, 'diff', () => now, 1000);
    progress.update('comparing customers', 1, 2);
    now = 10;
    progress.update('comparing customers', 2, 2);
    progress.finish();
    progress.stop();
    expect(out.text()).toBe('');
  });
});
