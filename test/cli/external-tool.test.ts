import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ExternalTool, toolAvailable } from '../support/external-tool.js';

/** How the CLI suite's curl and `script` checks treat a missing tool (test/support/external-tool.ts). */
describe('an external tool a check needs', () => {
  const missing: ExternalTool = { command: 'pricebook-no-such-tool', install: 'apt-get install -y no-such-tool' };
  const present: ExternalTool = { command: process.execPath, install: 'it is the running Node.js' };
  const environment = { PATH: process.env.PATH ?? '' };

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('when installed, is available, under CI=true or not, without a notice', () => {
    const notices = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(toolAvailable(present, 'the check', environment)).toBe(true);
    expect(toolAvailable(present, 'the check', { ...environment, CI: 'true' })).toBe(true);
    expect(notices).not.toHaveBeenCalled();
  });

  it('when missing under CI=true, fails the check, naming the tool, the check and how to install it', () => {
    expect(() => toolAvailable(missing, 'running the printed curl line', { ...environment, CI: 'true' })).toThrow(
      'CI=true but pricebook-no-such-tool is not installed: the check "running the printed curl line" cannot run (apt-get install -y no-such-tool)',
    );
  });

  it('when missing outside CI, skips the check with a notice on stderr', () => {
    const notices = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(toolAvailable(missing, 'serve at a terminal', environment)).toBe(false);
    expect(toolAvailable(missing, 'serve at a terminal', { ...environment, CI: 'false' })).toBe(false);
    expect(notices).toHaveBeenCalledTimes(2);
    expect(String(notices.mock.calls[0]![0])).toBe(
      '\n*** pricebook-no-such-tool not found: the check "serve at a terminal" is SKIPPED (apt-get install -y no-such-tool) ***\n\n',
    );
  });
});
