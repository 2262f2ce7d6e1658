import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/faults/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: files in parallel would fight over them and PostgreSQL.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
