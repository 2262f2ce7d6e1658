import type { FastifyInstance } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import { sendError } from './error-handler.js';
import { isPublicPath, isWelcomePageRequest } from './public-paths.js';

export const API_VERSION = 'v1';

/** Every API path starts with the version segment. */
export function registerVersionCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith(`/${API_VERSION}/`) || isPublicPath(request.url) || isWelcomePageRequest(request)) return done();
    sendError(reply, new AppError('not_found', `Unknown API version or path: paths start with /${API_VERSION}/ (supported versions: ${API_VERSION})`));
  });
}
