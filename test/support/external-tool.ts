import { spawnSync } from 'node:child_process';

/** A program a test runs that Node does not bring along. */
export interface ExternalTool {
  /** Run with `--version` to see that it is installed. */
  command: string;
  /** How to install it on Debian. */
  install: string;
}

export const CURL: ExternalTool = { command: 'curl', install: 'apt-get install -y curl' };
/** util-linux `script`, which gives a command a pseudo-terminal. */
export const SCRIPT: ExternalTool = { command: 'script', install: 'apt-get install -y bsdutils' };

/**
 * Whether `tool` is installed, for the check named `check`. Without it the check is skipped
 * with a notice on stderr, except under CI=true, where a missing tool is a failure (as a
 * missing Chromium is, test/support/chromium.ts): this throws, naming the tool and the check.
 */
export function toolAvailable(tool: ExternalTool, check: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const probe = spawnSync(tool.command, ['--version'], { stdio: 'ignore', timeout: 10_000, env: { PATH: env.PATH ?? '' } });
  if (probe.error === undefined && probe.status === 0) return true;
  if (env.CI === 'true') throw new Error(`CI=true but ${tool.command} is not installed: the check "${check}" cannot run (${tool.install})`);
  process.stderr.write(`\n*** ${tool.command} not found: the check "${check}" is SKIPPED (${tool.install}) ***\n\n`);
  return false;
}
