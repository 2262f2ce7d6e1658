import { defineConfig } from 'vitest/config';

/**
 * Suites whose assertions depend on wall-clock time (a 200-request burst inside one leak
 * interval, a fallback that must not wait for a hung Redis, webhook receivers answering within
 * or after 5 s, the quick bench within its 3 minutes, the client pacing itself by the default limits, the admin page in Chromium waiting out 429s) run after all the others, one file at a time, so the load of the other suites on
 * two cores cannot push them past their limits.
 */
const timed = ['test/multi-instance/**/*.test.ts', 'test/rate-limit/redis-rate-limiter.test.ts', 'test/rate-limit/redis-hung-http.test.ts', 'test/http/webhook-time-limits.test.ts', 'test/bench/**/*.test.ts', 'test/client/pacing.test.ts', 'test/admin/admin-page.test.ts', 'test/admin/admin-rate-limit.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: more workers would fight over them and PostgreSQL.
    maxWorkers: 2,
    // One printed seed for every property test of the run (PRICEBOOK_PROPERTY_SEED replays it).
    globalSetup: ['test/support/property-setup.ts'],
    setupFiles: ['test/support/property-seed.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: ['test/faults/**', 'node_modules/**', ...timed],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: timed,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
