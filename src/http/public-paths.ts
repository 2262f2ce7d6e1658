/**
 * Served over HTTPS without version segment or credentials: health checks, the API reference
 * and the admin page's static files (the page itself calls the API with a token).
 */
export function isPublicPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/healthz' || path === '/openapi.json' || isUnder(path, '/docs') || isUnder(path, '/admin');
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}
