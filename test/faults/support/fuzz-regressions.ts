import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FuzzCase } from './hostile-input.js';

/**
 * What the fuzz suite ever found, kept in `test/faults/fuzz-regressions.json`: seeds that once
 * failed (run again on every run, with as many cases as it took) and the exact requests that
 * failed (sent again on every run, whatever the generator has become since).
 */
export const REGRESSIONS_FILE = fileURLToPath(new URL('../fuzz-regressions.json', import.meta.url));

export interface RegressionSeed {
  seed: number;
  /** Cases to run from this seed: at least as many as it took to find the failure. */
  runs: number;
  found: string;
}

/**
 * A failing request as sent, but for credentials: a header value that was one of the run's
 * named credentials is kept as `{{name}}` (tokens differ from run to run).
 */
export interface Counterexample {
  found: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** UTF-8 text, or `base64:` and the bytes of a body that is not UTF-8. */
  body?: string;
}

export interface Regressions {
  seeds: RegressionSeed[];
  counterexamples: Counterexample[];
}

export function readRegressions(): Regressions {
  return JSON.parse(fs.readFileSync(REGRESSIONS_FILE, 'utf8')) as Regressions;
}

/** The command that runs the fuzz suite again with `seed`'s random choices. */
export function replayCommand(seed: number): string {
  return `PRICEBOOK_FAULT_SEED=${seed} npm run test:faults -- fuzz`;
}

/** A fuzz case as it is kept; `credentials` maps each named credential to its header value. */
export function toCounterexample(request: FuzzCase, credentials: Record<string, string>, found: string): Counterexample {
  const names = new Map(Object.entries(credentials).map(([name, value]) => [value, name]));
  const headers = Object.fromEntries(Object.entries(request.headers).map(([header, value]) => [header, names.has(value) ? `{{${names.get(value)}}}` : value]));
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : `base64:${request.body.toString('base64')}`;
  return { found, method: request.method, url: request.url, headers, ...(body === undefined ? {} : { body }) };
}

/** A kept case ready to send, with this run's credentials. */
export function toFuzzCase(example: Counterexample, credentials: Record<string, string>): FuzzCase {
  const headers = Object.fromEntries(
    Object.entries(example.headers).map(([header, value]) => {
      const name = /^\{\{(.+)\}\}$/.exec(value)?.[1];
      if (name === undefined) return [header, value];
      const credential = credentials[name];
      if (credential === undefined) throw new Error(`${REGRESSIONS_FILE}: no credential named ${name}`);
      return [header, credential];
    }),
  );
  const body = example.body === undefined ? undefined : example.body.startsWith('base64:') ? Buffer.from(example.body.slice(7), 'base64') : example.body;
  return { method: example.method, url: example.url, headers, body, bodyKind: 'kept counterexample' };
}

/**
 * Adds a failure to the file (once): its seed, to run again, and its request, to send again.
 * Commit the file with the fix.
 */
export function keepFailure(seed: RegressionSeed, example: Counterexample): void {
  const regressions = readRegressions();
  if (!regressions.seeds.some((kept) => kept.seed === seed.seed)) regressions.seeds.push(seed);
  const same = (kept: Counterexample) =>
    kept.method === example.method &&
    kept.url === example.url &&
    kept.body === example.body &&
    JSON.stringify(kept.headers) === JSON.stringify(example.headers);
  if (!regressions.counterexamples.some(same)) regressions.counterexamples.push(example);
  fs.writeFileSync(REGRESSIONS_FILE, `${JSON.stringify(regressions, null, 2)}\n`);
}
