import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../config/config.js';
import { buildApp } from './build-app.js';
import { buildServices } from './services.js';
import { generateSelfSigned } from './tls.js';

/**
 * The OpenAPI document `GET /openapi.json` answers, from an app built in this process on an
 * empty SQLite data directory that is removed afterwards: nothing listens, nothing is reached
 * over the network. The client's generator and the document's lint test read it.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-openapi-'));
  try {
    const config = parseConfig({ PRICEBOOK_DATA_DIR: dataDir, PRICEBOOK_DEMO: '0', PRICEBOOK_LOG_LEVEL: 'silent' }, {});
    const services = await buildServices(config);
    try {
      const app = await buildApp(config, services, { tls: { ...(await generateSelfSigned()), source: 'generated' }, logger: false });
      try {
        await app.ready();
        return app.swagger() as unknown as Record<string, unknown>;
      } finally {
        await app.close();
      }
    } finally {
      await services.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
