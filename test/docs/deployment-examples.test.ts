import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, parseConfig } from '../../src/config/config.js';
import { markedBlocks } from '../support/doc-blocks.js';

/**
 * docs/deployment.md's systemd unit and environment file (the blocks after `<!-- systemd-unit -->`
 * and `<!-- environment-file -->`) as an operator copies them: every variable is a setting the
 * server knows, the file's values pass its settings' rules, and the unit is one systemd reads.
 */
const DEPLOYMENT = 'docs/deployment.md';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-deployment-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function onlyBlock(name: string): string {
  const blocks = markedBlocks(DEPLOYMENT, name);
  expect(blocks, `one block marked ${name} in ${DEPLOYMENT}`).toHaveLength(1);
  return blocks[0]!.text;
}

describe('docs/deployment.md as a systemd service', () => {
  it('names in its environment file only settings the server has, with values its rules accept', () => {
    const known = new Set<string>(Object.values(CONFIG_VARIABLES));
    const assignments = onlyBlock('environment-file')
      .split('\n')
      .map((line) => /^(#?)([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
      .filter((found) => found !== null);
    expect(assignments.length).toBeGreaterThan(5);
    for (const [line, , name] of assignments) expect(known, `${line}: ${name!} is not a setting of src/config/config.ts`).toContain(name);
    // Set, and then also with every commented line set: each value passes the settings' rules.
    const active = Object.fromEntries(assignments.filter(([, comment]) => comment === '').map(([, , name, value]) => [name!, value!]));
    expect(() => parseConfig(active)).not.toThrow();
    const all = Object.fromEntries(assignments.map(([, , name, value]) => [name!, value!]));
    expect(() => parseConfig(all)).not.toThrow();
    expect(parseConfig(active)).toMatchObject({ dataDir: '/var/lib/pricebook', demo: false, httpPort: 8080 });
  });

  it('has a unit that reads that environment file, runs the built CLI’s serve, and passes systemd-analyze verify', ({ skip }) => {
    const unit = onlyBlock('systemd-unit');
    const environmentFile = /^# (\/\S+)$/m.exec(onlyBlock('environment-file'))?.[1];
    expect(unit).toContain(`EnvironmentFile=${environmentFile!}`);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/opt\/pricebook\/dist\/main\/pricebook\.js serve$/m);
    const bin = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { bin: Record<string, string> }).bin.pricebook;
    expect(unit).toContain(bin!);
    // The same data directory: the unit creates it as the service's state directory.
    expect(unit).toMatch(/^StateDirectory=pricebook$/m);
    const probe = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
    if (probe.error !== undefined || probe.status !== 0) {
      process.stderr.write('\n*** systemd-analyze not found: the unit of docs/deployment.md is not verified ***\n\n');
      skip();
    }
    const file = path.join(scratch, 'pricebook.service');
    fs.writeFileSync(file, `${unit}\n`);
    const verified = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 30_000 });
    // The machine running the test may have no /usr/bin/node or user pricebook: only what it says about the file counts.
    const complaints = `${verified.stdout}${verified.stderr}`.split('\n').filter((line) => line.includes(file));
    expect(complaints).toEqual([]);
  });
});
