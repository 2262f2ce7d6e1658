// `npm run test:soak`: the fault suite at full strength (test/faults/support/strength.ts), for a
// quiet machine and about half an hour: the untimed group once with 30 SIGKILL cycles on SQLite
// and 10 on PostgreSQL, 10 000 fuzz cases per engine and the regression seeds in full, then the
// timed group (every noisy-neighbour check) PRICEBOOK_SOAK_ROUNDS times (2 unless told), each
// round a run of its own with its own report. The whole soak stops itself after 45 minutes
// (PRICEBOOK_SOAK_MINUTES), failing, whatever step it is in. One seed for every step:
// PRICEBOOK_FAULT_SEED replays a soak. Exit 0 only when every step passed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';

const root = path.resolve(import.meta.dirname, '..');
const rounds = wholeNumber('PRICEBOOK_SOAK_ROUNDS', 2);
const minutes = wholeNumber('PRICEBOOK_SOAK_MINUTES', 45);
const seed = process.env.PRICEBOOK_FAULT_SEED ?? String(Math.floor(Math.random() * 1_000_000));
const deadline = Date.now() + minutes * 60_000;
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');

function wholeNumber(name, fallback) {
  const value = process.env[name];
  if (value === undefined) return fallback;
  if (!/^[1-9]\d{0,3}$/.test(value)) {
    process.stderr.write(`soak: ${name} must be a whole number from 1, got '${value}'\n`);
    process.exit(2);
  }
  return Number(value);
}

/** Runs one vitest step, its output passed through; resolves with how it ended. */
function step(name, project) {
  const started = Date.now();
  process.stdout.write(`\n--- soak: ${name} (seed ${seed}; ${Math.round((deadline - started) / 60_000)} of ${minutes} minutes left)\n`);
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.faults.config.ts', '--project', project], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PRICEBOOK_FAULT_SOAK: '1', PRICEBOOK_FAULT_SEED: seed },
  });
  let stopped = false;
  const timer = setTimeout(
    () => {
      stopped = true;
      child.kill('SIGTERM');
    },
    Math.max(0, deadline - started),
  );
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const seconds = Math.round((Date.now() - started) / 1000);
      const outcome = stopped ? `stopped at the ${minutes}-minute bound` : code === 0 && signal === null ? 'passed' : `failed (exit ${code ?? signal})`;
      process.stdout.write(`--- soak: ${name} ${outcome} after ${seconds} s\n`);
      resolve({ name, passed: !stopped && code === 0 && signal === null, outcome, seconds });
    }),
  );
}

const results = [await step('untimed group at full strength', 'untimed')];
for (let round = 1; round <= rounds && Date.now() < deadline; round++) results.push(await step(`timed group, round ${round} of ${rounds}`, 'timed'));
const missing = 1 + rounds - results.length;
process.stdout.write(
  `\n--- soak (seed ${seed}): ${results.map((result) => `${result.name}: ${result.outcome}, ${result.seconds} s`).join('; ')}${missing > 0 ? `; ${missing} round(s) not started before the bound` : ''}\n`,
);
process.exit(results.every((result) => result.passed) && missing === 0 ? 0 : 1);
