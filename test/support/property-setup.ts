import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seed of every fast-check property of the run: PRICEBOOK_PROPERTY_SEED replays a run. */
    propertySeed: number;
  }
}

/**
 * Global setup of `npm test`: one seed for every property test of the run, printed at the
 * start, so a failure can be replayed with
 * `PRICEBOOK_PROPERTY_SEED=N npx vitest run <file>` (or `npm test` as a whole).
 */
export default function setup(project: TestProject): void {
  const fromEnvironment = process.env.PRICEBOOK_PROPERTY_SEED;
  if (fromEnvironment !== undefined && !/^\d{1,9}$/.test(fromEnvironment))
    throw new Error(`PRICEBOOK_PROPERTY_SEED must be a whole number, got '${fromEnvironment}'`);
  const seed = Number(fromEnvironment ?? Math.floor(Math.random() * 1_000_000));
  project.provide('propertySeed', seed);
  // Every project of the run (this setup runs once per project) takes the same seed, printed once.
  process.env.PRICEBOOK_PROPERTY_SEED = String(seed);
  if (process.env.PRICEBOOK_PROPERTY_SEED_SHOWN === String(seed)) return;
  process.env.PRICEBOOK_PROPERTY_SEED_SHOWN = String(seed);
  process.stdout.write(`Property tests seed ${seed} (PRICEBOOK_PROPERTY_SEED=${seed} repeats their random choices)\n`);
}
