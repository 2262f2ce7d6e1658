import type { FastifyInstance } from 'fastify';
import { registerCsvBodyParser } from './csv-body-parser.js';
import { MAX_BODY_BYTES, registerJsonBodyParser } from './json-body-parser.js';

/**
 * The body parsers, in place of Fastify's own: JSON (json-body-parser.ts), and CSV for the
 * routes that take it (csv-body-parser.ts). Any other content type is refused earlier (415) for
 * POST and PUT and ignored for other methods: its body is read within the JSON limit and dropped.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  registerJsonBodyParser(app);
  registerCsvBodyParser(app);
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, _body, done) => done(null, undefined));
}
