import type { FastifyInstance } from 'fastify';
import { MAX_IMPORT_BYTES } from '../../contract/imports.js';
import { bodyTooLarge } from '../../modules/imports/import-limits.js';
import './route-config.js';

/**
 * The CSV body parser (`text/csv`): only for the routes whose config says `bodyType: 'csv'`
 * (imports, up to 50 MiB), and only on POST. The body is not read here: the route gets the
 * request's stream and reads it piece by piece, storing it as it comes. Registered with the
 * others by `registerBodyParsers`.
 */
export function registerCsvBodyParser(app: FastifyInstance): void {
  // CSV reaches only the routes that take it (the route guard refuses it elsewhere first).
  app.addContentTypeParser('text/csv', (request, payload, done) => {
    if (request.routeOptions.config.bodyType !== 'csv' || request.method !== 'POST') {
      done(null, undefined);
      return;
    }
    // A length announced over the limit is refused before a byte is read; the route counts the rest.
    if (Number(request.headers['content-length']) > MAX_IMPORT_BYTES) {
      done(bodyTooLarge(), undefined);
      return;
    }
    done(null, payload);
  });
}
