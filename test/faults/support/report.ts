import fs from 'node:fs';
import { inject } from 'vitest';

/** Prints one check's figure and keeps it for the report printed at the end of the run. */
export function reportLine(line: string): void {
  console.log(line);
  fs.appendFileSync(inject('faultReportFile'), `${line}\n`);
}

/** The run's seed (see report-setup.ts). */
export function faultSeed(): number {
  return inject('faultSeed');
}

/** `4812` → `4 812`, as the report writes figures. */
export function figure(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** The value below which `share` of the samples lie (nearest rank), in the samples' unit. */
export function percentile(samples: readonly number[], share: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/** A small seeded generator (mulberry32), so a run's random choices can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
