import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../modules/errors.js';
import { sendError } from './error-handler.js';

/**
 * Where `npm run build` puts the admin page (`src/admin` compiled, plus its HTML and CSS).
 * The same relative path from `src/http/` (tests) and `dist/http/` (the built server).
 */
export const ADMIN_ASSETS_DIR = fileURLToPath(new URL('../../dist/admin/', import.meta.url));

/** Only the page's own files: no inline scripts or styles, nothing from another origin, no framing. */
export const ADMIN_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  // Forms are sent by the page's script; without it, a form goes nowhere (never a token in a URL).
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every admin page file, and of the page at `/` (http/welcome-page.ts). */
export const ADMIN_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': ADMIN_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // No hashed file names: the browser revalidates, so a new build is seen at once.
  'cache-control': 'no-cache',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

interface Asset {
  body: Buffer;
  contentType: string;
}

/**
 * The admin page at `/admin` (and its files at `/admin/*`): static files read once at start
 * from `directory`, served without credentials (a public path) over the same HTTPS listener.
 * The page signs in with an API token and calls the public API like any client. A name that
 * is not one of the files is a 404 in the API's error shape; without a build, every name is.
 */
export async function registerAdminPage(app: FastifyInstance, directory: string = ADMIN_ASSETS_DIR): Promise<void> {
  const assets = await readAssets(directory);
  const index = assets.get('index.html');
  const serve = async (name: string, reply: FastifyReply) => {
    const asset = name === '' ? index : assets.get(name);
    if (asset === undefined) {
      const message = index === undefined ? 'The admin page is not built: run npm run build' : `No admin page file named '${name.slice(0, 100)}'`;
      return sendError(reply.headers(ADMIN_SECURITY_HEADERS), new AppError('not_found', message));
    }
    return reply.headers(ADMIN_SECURITY_HEADERS).type(asset.contentType).send(asset.body);
  };
  app.get('/admin', { schema: { hide: true } }, async (_request, reply) => serve('', reply));
  app.get<{ Params: { '*': string } }>('/admin/*', { schema: { hide: true } }, async (request, reply) => serve(request.params['*'], reply));
}

/** Every file under `directory` with a known type, by its path relative to it (`views/customers.js`). */
async function readAssets(directory: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  let entries: string[];
  try {
    entries = await fs.readdir(directory, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return assets;
    throw error;
  }
  for (const entry of entries) {
    const contentType = CONTENT_TYPES[path.extname(entry)];
    if (contentType === undefined) continue;
    const file = path.join(directory, entry);
    if (!(await fs.stat(file)).isFile()) continue;
    assets.set(entry.split(path.sep).join('/'), { body: await fs.readFile(file), contentType });
  }
  return assets;
}
