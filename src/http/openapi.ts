import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBodySchema } from '../contract/errors.js';
import type { Scope } from '../modules/stores/scopes.js';
import './route-config.js';

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
        description:
          'Trade (customer-specific) product prices and the catalog around them. Every path starts with /v1/; ' +
          'every request needs HTTPS and a credential (Bearer token or HTTP Basic key:secret). Errors are ' +
          '`{"code", "message", "errors"?}`; see the README for the code table.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'The `token` printed by `pricebook keys create`' },
          basicAuth: { type: 'http', scheme: 'basic', description: 'The `key` as user name and the `secret` as password' },
        },
      },
      security: [{ bearerAuth: [] }, { basicAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { url: '/openapi.json' } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** An operation's scopes as its description ends: "Scopes: `a`, `b`." (docs/scopes.md has every case). */
function scopesDescription(scope: Scope | readonly Scope[] | undefined, embeds: Readonly<Record<string, Scope>> | undefined): string | undefined {
  if (scope === undefined) return undefined;
  const scopes = typeof scope === 'string' ? [scope] : [...scope];
  const extra = Object.entries(embeds ?? {}).filter(([, needed]) => !scopes.includes(needed));
  const embedText = extra.map(([name, needed]) => ` \`embed=${name}\` also needs \`${needed}\`.`).join('');
  return `${scopes.length === 1 ? 'Scope' : 'Scopes'}: ${scopes.map((name) => `\`${name}\``).join(', ')}.${embedText}`;
}
