import type { FastifyInstance } from 'fastify';
import { ADMIN_SECURITY_HEADERS } from './admin-assets.js';

/** What a browser opening the server's address gets: where the admin page and the reference are. */
export const WELCOME_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pricebook</title>
<link rel="icon" href="/admin/favicon.svg" type="image/svg+xml">
</head>
<body>
<main>
<h1>Pricebook</h1>
<p>This is the Pricebook API. Every API path starts with <code>/v1/</code> and needs an API token.</p>
<ul>
<li><a href="/admin">The admin page</a>: customers, trade prices, price lists, imports and webhooks.</li>
<li><a href="/docs">The API reference</a>, and its OpenAPI document at <a href="/openapi.json">/openapi.json</a>.</li>
</ul>
</main>
</body>
</html>
`;

/**
 * `GET /` from a browser (an `Accept` header naming `text/html`: `isWelcomePageRequest`) gets a
 * small page pointing to `/admin` and `/docs`, with the admin page's security headers. Every
 * other request to `/` never gets here: the version check answers it with the JSON 404 (code 5).
 */
export function registerWelcomePage(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    return reply.headers(ADMIN_SECURITY_HEADERS).type('text/html; charset=utf-8').send(WELCOME_PAGE);
  });
}
