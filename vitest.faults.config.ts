import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: crashes, hostile input, tenant isolation and slow clients against the
 * running service (docs/reliability.md). One file at a time: they load the machine on purpose,
 * and the latency figures of one must not include the load of another.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/faults/support/report-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    maxWorkers: 1,
    // The servers under test run in the worker, with the young-generation cap `npm start` gives
    // a server: V8's default sizing for this machine makes scavenges long enough to hold the loop.
    execArgv: ['--max-semi-space-size=8'],
  },
});
