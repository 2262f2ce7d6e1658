import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBodySchema } from '../contract/errors.js';

/**
 * The OpenAPI 3.1 document, generated from the route schemas, at `/openapi.json`, and a
 * browsable reference at `/docs` served from the installed swagger-ui package (no CDN).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBodySchema);
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
