import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file every check of the fault suite appends its report line to. */
    faultReportFile: string;
    /** One seed for every random choice of the run: PRICEBOOK_FAULT_SEED replays a run. */
    faultSeed: number;
  }
}

/** One report and one seed for the whole run, whichever of the suite's projects set up first. */
let run: { file: string; seed: number; projects: number } | undefined;

/**
 * Global setup of the fault suite (each of its projects calls it): collects each check's
 * one-line figure while the files run, then prints them together once the last project is
 * done, in the order the checks finished.
 */
export default function setup(project: TestProject): () => void {
  if (run === undefined) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-faults-')), 'report.txt');
    fs.writeFileSync(file, '');
    const seed = Number(process.env.PRICEBOOK_FAULT_SEED ?? Math.floor(Math.random() * 1_000_000));
    run = { file, seed, projects: 0 };
    // Printed now as well as in the report: a run cut short by a timeout still tells its seed.
    process.stdout.write(`Fault suite seed ${seed} (PRICEBOOK_FAULT_SEED=${seed} repeats its random choices)\n`);
  }
  const { file, seed } = run;
  run.projects += 1;
  project.provide('faultReportFile', file);
  project.provide('faultSeed', seed);
  return () => {
    if (run === undefined || --run.projects > 0) return;
    run = undefined;
    const lines = fs.readFileSync(file, 'utf8').trimEnd();
    // A project left out of the run (`--project untimed`) is set up and torn down on its own: it has nothing to report.
    if (lines !== '') process.stdout.write(`\nFault suite report (seed ${seed}; PRICEBOOK_FAULT_SEED=${seed} repeats its random choices)\n${lines}\n\n`);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  };
}
