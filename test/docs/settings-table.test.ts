import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagOf, type Setting, SETTINGS, shownDefault } from '../../src/config/settings.js';
import { REPOSITORY } from '../support/doc-blocks.js';

/**
 * The README's table of settings is generated from `SETTINGS` (src/config/settings.ts): a
 * setting is written once there, and this test fails while the README shows another table.
 * `PRICEBOOK_WRITE_DOCS=1` writes the table into the README instead.
 */
const README = path.join(REPOSITORY, 'README.md');
const START = '<!-- settings: generated from src/config/settings.ts (test/docs/settings-table.test.ts) -->';
const END = '<!-- end of settings -->';

function settingsTable(): string {
  const rows = Object.values(SETTINGS).map(
    (setting: Setting<unknown>) => `| \`${setting.env}\` | \`${flagOf(setting.env)}\` | ${shownDefault(setting)} | ${setting.doc} |`,
  );
  return ['| variable | `serve` flag | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

describe('the README’s table of settings', () => {
  it('is the one SETTINGS makes', () => {
    const readme = fs.readFileSync(README, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start, `README.md marks its table of settings with ${START} … ${END}`).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const shown = readme.slice(start + START.length, end).trim();
    const generated = settingsTable();
    if (shown !== generated && process.env.PRICEBOOK_WRITE_DOCS === '1') {
      fs.writeFileSync(README, `${readme.slice(0, start + START.length)}\n${generated}\n${readme.slice(end)}`);
      return;
    }
    expect(shown, 'README.md: run this test with PRICEBOOK_WRITE_DOCS=1 to write the table SETTINGS makes').toBe(generated);
  });
});
