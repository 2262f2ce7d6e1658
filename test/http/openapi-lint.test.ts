import fs from 'node:fs';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/app/openapi-document.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Integrators in other languages generate clients from `/openapi.json`: it passes Redocly's
 * recommended rules (linted in this process, nothing fetched) with no error, and every
 * operation has the `operationId` generators name their methods by.
 */
describe('the OpenAPI document', () => {
  let document: Record<string, unknown>;
  beforeAll(async () => {
    document = await buildOpenApiDocument();
  });

  it("passes Redocly's recommended rules: no error, no operationId or license warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const described = problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`);
    expect(described.filter((line) => line.startsWith('error '))).toEqual([]);
    expect(described.filter((line) => /^warn (operation-operationId|info-license)/.test(line))).toEqual([]);
  });

  it("names the project's license", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { license: string };
    expect((document.info as { license?: unknown }).license).toEqual({ name: manifest.license, identifier: manifest.license });
  });
});
