import fs from 'node:fs/promises';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { ChangeSetOperationSchema } from '../../contract/change-sets.js';
import { ErrorBodySchema } from '../../contract/errors.js';
import type { Scope } from '../../modules/stores/scopes.js';
import { ADMIN_ASSETS_DIR } from './admin-assets.js';
import './route-config.js';

/**
 * `/docs` and its files: only their own scripts and styles (no inline `<style>`: swagger-ui's
 * top bar, whose logo carries one, is left out), the OpenAPI document and "Try it out" calls to
 * this server, images and fonts of its stylesheet given as `data:` URLs, no framing.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The OpenAPI 3.1 document, generated from the route schemas, at `/openapi.json`, and a
 * browsable reference at `/docs` served from the installed swagger-ui package (no CDN).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBodySchema);
  app.addHook('onRoute', (route) => {
    const described = scopesDescription(route.config?.scope, route.config?.embeds);
    if (route.schema === undefined || described === undefined) return;
    const { description } = route.schema as { description?: string };
    (route.schema as { description?: string }).description = description === undefined ? described : `${description} ${described}`;
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pricebook API',
        version: '1.0.0',
        // package.json's license (a test holds them together).
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Trade (customer-specific) product prices and the catalog around them. Every path starts with /v1/; ' +
          'every request needs HTTPS and a credential (Bearer token or HTTP Basic key:secret). Errors are ' +
          '`{"code", "message", "errors"?}`; see the README for the code table.',
      },
      servers: [{ url: '/' }],
      components: {
        schemas: { ChangeSetOperation: ChangeSetOperationSchema },
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'The `token` printed by `pricebook keys create`' },
          basicAuth: { type: 'http', scheme: 'basic', description: 'The `key` as user name and the `secret` as password' },
        },
      },
      security: [{ bearerAuth: [] }, { basicAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url }) => ({ schema: withQueryTitle(schema), url }),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CONTENT_SECURITY_POLICY,
    // BaseLayout: the reference without swagger-ui's top bar (its logo, its URL field).
    uiConfig: { url: '/openapi.json', layout: 'BaseLayout' },
    theme: { title: 'Pricebook API reference', favicon: await docsFavicon() },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The document writes a query as one parameter per field, which loses its schema's `title`:
 * the operation keeps it as `x-query-title`, so generated clients can name the query's type.
 */
function withQueryTitle(schema: FastifySchema): FastifySchema {
  const title = (schema?.querystring as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? ({ ...schema, 'x-query-title': title } as FastifySchema) : schema;
}

/** The admin page's icon (from the build) in place of swagger-ui's; without a build, swagger-ui's own. */
async function docsFavicon(): Promise<Array<{ filename: string; rel: string; type: string; sizes: string; content: Buffer }> | undefined> {
  try {
    const content = await fs.readFile(path.join(ADMIN_ASSETS_DIR, 'favicon.svg'));
    return [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content }];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** An operation's scopes as its description ends: "Scopes: `a`, `b`." (docs/scopes.md has every case). */
function scopesDescription(scope: Scope | readonly Scope[] | undefined, embeds: Readonly<Record<string, Scope>> | undefined): string | undefined {
  if (scope === undefined) return undefined;
  const scopes = typeof scope === 'string' ? [scope] : [...scope];
  const extra = Object.entries(embeds ?? {}).filter(([, needed]) => !scopes.includes(needed));
  const embedText = extra.map(([name, needed]) => ` \`embed=${name}\` also needs \`${needed}\`.`).join('');
  return `${scopes.length === 1 ? 'Scope' : 'Scopes'}: ${scopes.map((name) => `\`${name}\``).join(', ')}.${embedText}`;
}
