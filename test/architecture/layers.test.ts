import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The layers of docs/ARCHITECTURE.md are held by the lint rule in eslint.layers.js (run by
 * `npm run lint`). These plant imports in files that do not exist and lint them with the
 * project's own config: an import up the layers must fail, one down them must pass.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: ROOT });

async function problemsOf(filePath: string, code: string): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

describe('the layers lint rule', () => {
  it('refuses an import from modules/ into http/', async () => {
    const problems = await problemsOf(
      'src/modules/pricing/planted.ts',
      "import { principalOf } from '../../http/plugins/app-types.js';\nexport const planted = principalOf;\n",
    );
    expect(problems).toEqual([
      {
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining('src/modules/ may not import src/http/, a layer above it: docs/ARCHITECTURE.md') as string,
      },
    ]);
  });

  it('refuses Kysely and Fastify in modules/, types included', async () => {
    const problems = await problemsOf(
      'src/modules/shared/planted.ts',
      "import { sql } from 'kysely';\nimport type { FastifyRequest } from 'fastify';\nimport type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';\nexport const planted: [typeof sql, FastifyRequest?, TypeBoxTypeProvider?] = [sql];\n",
    );
    expect(problems.map((problem) => problem.ruleId)).toEqual(['no-restricted-imports', 'no-restricted-imports', 'no-restricted-imports']);
    expect(problems[0]!.message).toContain('neither Fastify nor Kysely');
  });

  it('refuses an import up inside http/ and one from storage/ into http/', async () => {
    const plugin = await problemsOf(
      'src/http/plugins/planted.ts',
      "import { limitConnections } from '../server/connection-slots.js';\nexport const planted = limitConnections;\n",
    );
    expect(plugin.map((problem) => problem.message)).toEqual([expect.stringContaining('src/http/plugins/ may not import src/http/server/')]);
    const storage = await problemsOf(
      'src/storage/planted.ts',
      "import { sendError } from '../http/plugins/error-handler.js';\nexport const planted = sendError;\n",
    );
    expect(storage.map((problem) => problem.message)).toEqual([expect.stringContaining('src/storage/ may not import src/http/')]);
  });

  it('passes imports down the layers and within one', async () => {
    const problems = await problemsOf(
      'src/modules/pricing/planted.ts',
      [
        "import { AppError } from '../shared/errors.js';",
        "import { TradePriceWrites } from '../trade-prices/trade-price-writes.js';",
        "import { csvText } from '../../csv/csv-text.js';",
        "import type { PricedSku } from '../../contract/trade-prices.js';",
        "import { clip } from '../../text/clip.js';",
        'export const planted: [typeof AppError, typeof TradePriceWrites, typeof csvText, PricedSku?, typeof clip] = [AppError, TradePriceWrites, csvText, undefined, clip];',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(
      await problemsOf(
        'src/http/routes/planted.ts',
        "import { sendError } from '../plugins/error-handler.js';\nimport { AppError } from '../../modules/shared/errors.js';\nexport const planted = [sendError, AppError];\n",
      ),
    ).toEqual([]);
  });

  it('places every folder of src/ in a layer', async () => {
    const config = (await eslint.calculateConfigForFile(path.join(ROOT, 'src/main/planted.ts'))) as {
      rules: Record<string, [unknown, { zones: Array<{ target: string; from: string }> }]>;
    };
    const zones = config.rules['import-x/no-restricted-paths']![1].zones;
    const named = new Set(zones.flatMap((zone) => [zone.target, zone.from]));
    const folders = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}`);
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
    expect(
      [...named].filter((folder) => !folders.includes(folder) && !folder.startsWith('src/http/') && folder !== 'packages/client' && folder !== 'src'),
    ).toEqual([]);
  });
});
