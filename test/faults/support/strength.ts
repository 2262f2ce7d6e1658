/**
 * How hard the fault suite pushes. CI runs it short, to fit its time; `npm run test:soak`
 * (scripts/soak.js, which sets PRICEBOOK_FAULT_SOAK=1) runs the same files at full strength:
 * more SIGKILL cycles, more fuzz cases and random sequences, the regression seeds replayed in
 * full, and longer test timeouts to match. The report lines are the same; only the figures grow.
 */
export const SOAK = process.env.PRICEBOOK_FAULT_SOAK === '1';

/** `short` in CI's run, `full` in the soak. */
export function strength<T>(short: T, full: T): T {
  return SOAK ? full : short;
}
