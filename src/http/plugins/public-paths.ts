/**
 * Served over HTTPS without version segment or credentials: health checks, the API reference
 * and the admin page's static files (the page itself calls the API with a token).
 * Staff sign-in (`POST /v1/session`) needs no credential either: `isSignInRequest`.
 */
export function isPublicPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/healthz' || path === '/openapi.json' || isUnder(path, '/docs') || isUnder(path, '/admin');
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * A browser's `GET /` (its `Accept` names `text/html`): answered without credentials by the page
 * that points to `/admin` and `/docs` (http/plugins/welcome-page.ts). Any other request to `/` stays
 * the JSON 404 of a path outside `/v1/`.
 */
export function isWelcomePageRequest(request: { method: string; url: string; headers: { accept?: string | undefined } }): boolean {
  return request.method === 'GET' && (request.url.split('?', 1)[0] ?? '') === '/' && /\btext\/html\b/i.test(request.headers.accept ?? '');
}

/**
 * A staff sign-in, `POST /v1/session`: the one `/v1/` request without a credential. Its own
 * throttle counts its failures (http/sign-in-throttle.ts); the session's other operations
 * (`GET`, `DELETE`, `/password`) need the session.
 */
export function isSignInRequest(request: { method: string; url: string }): boolean {
  return request.method === 'POST' && (request.url.split('?', 1)[0] ?? '') === '/v1/session';
}
