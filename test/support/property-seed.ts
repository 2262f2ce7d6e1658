import fc from 'fast-check';
import { inject } from 'vitest';

/**
 * Runs in every test file (vitest `setupFiles`): each fast-check property takes the run's seed
 * (test/support/property-setup.ts) unless it names its own, so the seed printed at the start
 * replays every property of the run. A counterexample found goes into the property's
 * `examples` (or a fixed test) so it runs on every later run too.
 */
fc.configureGlobal({ seed: inject('propertySeed') });
