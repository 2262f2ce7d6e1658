import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.js';

/**
 * Suites whose assertions depend on wall-clock time (a 200-request burst inside one leak
 * interval, a fallback that must not wait for a hung Redis, webhook receivers answering within
 * or after 5 s, the client pacing itself by the default limits) run after all the others,
 * one file at a time, so the load of the other suites on two cores cannot push them past their
 * limits.
 */
const timed = [
  'test/multi-instance/**/*.test.ts',
  'test/rate-limit/redis-rate-limiter.test.ts',
  'test/rate-limit/redis-hung-http.test.ts',
  'test/http/webhook-time-limits.test.ts',
  'test/client/pacing.test.ts',
];
/**
 * The admin page in Chromium: after the timed suites, two files at a time. They wait (for the
 * page, for outcomes to close, for 429s to pass) far more than they compute, and each has its
 * own server, browser and profile. Four at a time was tried: the files took 759 s in all
 * instead of 463 (each page slower), the step 273 s instead of 305, and a page missed its 10 s.
 */
const browser = [
  'test/admin/admin-page.test.ts',
  'test/admin/admin-staff.test.ts',
  'test/admin/admin-rate-limit.test.ts',
  'test/admin/admin-change-sets.test.ts',
  'test/admin/admin-approval.test.ts',
  'test/admin/admin-layout.test.ts',
  'test/admin/admin-money-cells.test.ts',
  'test/admin/admin-outcomes.test.ts',
  'test/admin/admin-names-and-commas.test.ts',
  'test/admin/admin-history-views.test.ts',
];
/** Suites that run the built CLI as processes (`npm run test:quick` leaves them out). */
const processes = [
  'test/cli/cli.test.ts',
  'test/cli/node-version-guard.test.ts',
  'test/package/packed-install.test.ts',
  'test/cli/serve-terminal.test.ts',
  'test/docs/readme-walkthrough.test.ts',
  'test/cli/prices-cli*.test.ts',
  'test/cli/staff-cli.test.ts',
  'test/cli/worker-process.test.ts',
  'test/http/webhook-crash.test.ts',
];
/** `npm run bench -- --quick` as a test: a step of its own in CI, not part of `npm test`. */
const bench = ['test/bench/**/*.test.ts'];
/** `npm run test:quick`: SQLite only (PRICEBOOK_TEST_ENGINES), no processes, no timed suites. */
const quick = process.env.PRICEBOOK_TEST_QUICK === '1';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // One printed seed for every property test of the run (PRICEBOOK_PROPERTY_SEED replays it),
    // and dist/ rebuilt first when the sources are newer (the process suites run it).
    globalSetup: ['test/support/property-setup.ts', 'test/support/fresh-build.ts', 'test/support/template-databases.ts'],
    setupFiles: ['test/support/property-seed.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: ['test/faults/**', 'node_modules/**', ...timed, ...browser, ...bench, ...(quick ? processes : [])],
          sequence: { groupOrder: 0 },
          // Four on two cores: many of these suites wait (on a child process, a lease, a
          // receiver, PostgreSQL) more than they compute; the third and fourth workers fill those waits.
          // PRICEBOOK_TEST_WORKERS sets another number (.ci/run's Node.js 22 step, beside other work, takes 2).
          maxWorkers: Number(process.env.PRICEBOOK_TEST_WORKERS ?? 4),
          // A worker keeps the modules it has loaded from one file to the next: each file
          // imported the whole server again (about 3 s of a worker's time a file, a fifth of the
          // run's CPU). Every suite makes its own server, database and key prefix, and nothing of
          // the server keeps state in a module, so files cannot see each other's.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'timed', include: timed, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browser,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          // What the page shows is waited for up to 10 s (Vitest's default is 1 s): a check of a
          // file or a sign-in on a busy machine takes longer than a second, not longer than ten.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
      {
        extends: true,
        test: { name: 'bench', include: bench, fileParallelism: false, sequence: { groupOrder: 3 } },
      },
    ],
  },
});
