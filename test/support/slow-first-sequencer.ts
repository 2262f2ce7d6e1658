import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Suites that take a minute or more because they wait (a delivery lease, child processes,
 * queued imports, a server killed and started again, a page in Chromium) more than they
 * compute, slowest first. Vitest orders files by their last run's duration, and without a cache
 * (a fresh clone: CI) by size; a small file such as webhook-crash then starts last and the run
 * waits a minute for it alone. One list for every project of both configs: each project's files
 * are sorted among themselves.
 */
const SLOW = [
  // The fault suite's untimed group (vitest.faults.config.ts).
  'test/faults/crash.test.ts',
  'test/faults/crash-controls.test.ts',
  'test/faults/history-crash.test.ts',
  'test/faults/import-crash.test.ts',
  // The admin page in Chromium.
  'test/admin/admin-page.test.ts',
  'test/admin/admin-outcomes.test.ts',
  'test/admin/admin-change-sets.test.ts',
  'test/admin/admin-staff.test.ts',
  // The main project.
  'test/http/webhook-crash.test.ts',
  'test/cli/cli.test.ts',
  'test/http/imports-limits.test.ts',
  'test/cli/staff-cli.test.ts',
  'test/cli/prices-cli.test.ts',
  'test/cli/prices-cli-messages.test.ts',
  'test/package/packed-install.test.ts',
  'test/cli/history-verify.test.ts',
  'test/http/webhook-delivery.test.ts',
  'test/cli/prices-cli-hostile-text.test.ts',
];

/** The default order, with the slow suites of `SLOW` first, in that order. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOW.findIndex((slow) => file.moduleId.endsWith(slow));
      return index === -1 ? SLOW.length : index;
    };
    return sorted
      .map((file, position) => ({ file, position }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position)
      .map(({ file }) => file);
  }
}
