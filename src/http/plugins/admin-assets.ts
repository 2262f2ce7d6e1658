import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import { sendError } from './error-handler.js';

/**
 * Where `npm run build` puts the admin page (`src/admin` compiled, plus its HTML and CSS).
 * The same relative path from `src/http/` (tests) and `dist/http/` (the built server).
 */
export const ADMIN_ASSETS_DIR = fileURLToPath(new URL('../../../dist/admin/', import.meta.url));

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

/** The headers of every admin page file, and of the page at `/` (http/plugins/welcome-page.ts). */
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
  /** The body gzipped once at start, for a browser that takes it; undefined when that is no smaller. */
  gzipped: Buffer | undefined;
  contentType: string;
}

/** Types worth compressing: text. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg']);

/**
 * Whether `Accept-Encoding` takes gzip: `gzip` or `*` listed without `q=0` (RFC 9110 §12.5.3;
 * `gzip;q=0` refuses it even beside `*`).
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*');
  return gzip !== undefined && gzip > 0;
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
  const serve = async (name: string, request: FastifyRequest, reply: FastifyReply) => {
    const asset = name === '' ? index : assets.get(name);
    if (asset === undefined) {
      const message = index === undefined ? 'The admin page is not built: run npm run build' : `No admin page file named '${name.slice(0, 100)}'`;
      return sendError(reply.headers(ADMIN_SECURITY_HEADERS), new AppError('not_found', message));
    }
    reply.headers(ADMIN_SECURITY_HEADERS).type(asset.contentType);
    if (asset.gzipped === undefined) return reply.send(asset.body);
    reply.header('vary', 'accept-encoding');
    return acceptsGzip(request.headers['accept-encoding']) ? reply.header('content-encoding', 'gzip').send(asset.gzipped) : reply.send(asset.body);
  };
  app.get('/admin', { schema: { hide: true } }, async (request, reply) => serve('', request, reply));
  app.get<{ Params: { '*': string } }>('/admin/*', { schema: { hide: true } }, async (request, reply) => serve(request.params['*'], request, reply));
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
    const body = await fs.readFile(file);
    const gzipped = COMPRESSIBLE.has(path.extname(entry)) ? zlib.gzipSync(body) : undefined;
    assets.set(entry.split(path.sep).join('/'), { body, gzipped: gzipped !== undefined && gzipped.length < body.length ? gzipped : undefined, contentType });
  }
  return assets;
}
