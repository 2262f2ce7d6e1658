/** Served over HTTPS without version segment or credentials: health checks and the API reference. */
export function isPublicPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/healthz' || path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');
}
