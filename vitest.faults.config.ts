import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.js';

/**
 * `npm run test:faults`: crashes, hostile input, tenant isolation, slow clients and noisy
 * neighbours against the running service (docs/reliability.md), in two groups:
 * - `untimed`: the checks that assert no time or latency (crashes, fuzzing, isolation, the
 *   events purge, whose clock moves by its own ticks), three files at a time: what they count does
 *   not depend on how busy the machine is;
 * - `timed`: the checks that measure latency and the event loop, one file at a time: the
 *   figures of one must not include the load of another.
 *
 * `.ci/run` runs the two groups as two runs (`-- --project untimed`, then `-- --project timed`)
 * with one seed, so work that asserts no time either can share the machine with the first.
 */
const untimed = [
  'test/faults/crash.test.ts',
  'test/faults/crash-controls.test.ts',
  'test/faults/change-set-crash.test.ts',
  'test/faults/fuzz.test.ts',
  'test/faults/tenant-isolation.test.ts',
  'test/faults/import-crash.test.ts',
  'test/faults/purge-soak.test.ts',
  'test/faults/history-crash.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/support/fresh-build.ts', 'test/faults/support/report-setup.ts', 'test/support/template-databases.ts'],
    // `npm run test:soak` runs the same files at full strength (test/faults/support/strength.ts).
    testTimeout: process.env.PRICEBOOK_FAULT_SOAK === '1' ? 1_800_000 : 120_000,
    hookTimeout: 60_000,
    // The servers under test run in the worker, with the young-generation cap `npm start` gives
    // a server: V8's default sizing for this machine makes scavenges long enough to hold the loop.
    execArgv: ['--max-semi-space-size=8'],
    // The longest untimed files first: crash.test.ts alone takes most of the group's time.
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'untimed', include: untimed, maxWorkers: 3, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'timed', include: ['test/faults/**/*.test.ts'], exclude: untimed, fileParallelism: false, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
