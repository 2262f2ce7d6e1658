import { randomUUID } from 'node:crypto';
import https from 'node:https';
import http from 'node:http';
import type { BlockList } from 'node:net';
import Fastify, { LogController, type FastifyServerFactory } from 'fastify';
import type { DestinationStream } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CONFIG_VARIABLES, type Config } from '../config/config.js';
import { AppError } from '../modules/shared/errors.js';
import { keepReadingBehindLargeAnswers } from '../http/server/answer-buffer.js';
import { type App } from '../http/plugins/app-types.js';
import { registerBodyParsers } from '../http/plugins/body-parsers.js';
import { bodyValidatorCompiler, createBodyAjv } from '../http/plugins/body-validator.js';
import { clientErrorAnswerer, registerEarlyAnswerTracking, trackHandshakes } from '../http/server/client-errors.js';
import { type ConnectionLimits, FIRST_REQUEST_TIMEOUT_MS, limitConnections } from '../http/server/connection-slots.js';
import { registerErrorHandler } from '../http/plugins/error-handler.js';
import { MAX_BODY_BYTES } from '../http/plugins/json-body-parser.js';
import { registerOpenApi } from '../http/plugins/openapi.js';
import { registerAdminPage } from '../http/plugins/admin-assets.js';
import { registerWelcomePage } from '../http/plugins/welcome-page.js';
import { registerVersionCheck } from '../http/plugins/api-version.js';
import { registerAuthentication } from '../http/plugins/authenticate.js';
import { registerNotFound } from '../http/plugins/not-found.js';
import { INVALID_PROTOCOL_MESSAGE, isTrusted, registerProtocolCheck, trustedProxies } from '../http/plugins/protocol.js';
import { registerRateLimit } from '../http/plugins/rate-limit.js';
import { registerParamsAndProjection } from '../http/plugins/params-and-projection.js';
import { registerRouteGuard } from '../http/plugins/route-guard.js';
import { registerApprovalGuard } from '../http/plugins/approval-guard.js';
import { registerRequestLog } from '../http/plugins/request-log.js';
import { registerRequestMetrics } from '../http/plugins/request-metrics.js';
import type { HttpMetrics } from '../metrics/http-metrics.js';
import { rerouteUnreadableUrl } from '../http/plugins/unreadable-url.js';
import { registerCustomerRoutes } from '../http/routes/customers.js';
import { registerCategoryRoutes } from '../http/routes/categories.js';
import { registerPriceListRoutes } from '../http/routes/price-lists/index.js';
import { registerCustomerGroupRoutes } from '../http/routes/customer-groups.js';
import { registerStoreRoutes } from '../http/routes/store/get-store.js';
import { registerChangeSetRoutes } from '../http/routes/change-sets/index.js';
import { registerQuoteRoutes } from '../http/routes/quotes/index.js';
import { registerImportRoutes } from '../http/routes/imports.js';
import { registerProductRoutes } from '../http/routes/products.js';
import { registerSkuRoutes } from '../http/routes/skus/index.js';
import { registerVariationRoutes } from '../http/routes/variations.js';
import { TradePriceEmbedder } from '../http/routes/trade-prices/embed-trade-prices.js';
import { registerTradePriceRoutes } from '../http/routes/trade-prices/index.js';
import { registerOrderRoutes } from '../http/routes/orders.js';
import { registerWebhookRoutes } from '../http/routes/webhooks.js';
import { registerEventRoutes } from '../http/routes/events.js';
import { registerSessionRoutes } from '../http/routes/session/index.js';
import { registerPriceHistoryRoutes } from '../http/routes/price-history/index.js';
import { registerIdempotentCreate } from '../http/plugins/idempotent-create.js';
import { health } from '../http/routes/system/health.js';
import { createLogs } from './logs.js';
import type { Services } from './services.js';
import type { TlsPair } from './tls.js';

/** Slow clients are cut off: headers within 10 s, the whole request within 30 s. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A TLS handshake not finished within this is dropped (Node's default is 120 s). */
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

export interface AppOptions {
  /** The HTTPS certificate; the app's server speaks TLS with it. */
  tls: TlsPair;
  /**
   * The log's level and destination, or false for silence; `stream` replaces stdout (a
   * terminal's readable form; tests capture the log). Default: the configured level, on stdout
   * through an asynchronous buffer (app/logs.ts).
   */
  logger?: boolean | { level: string; stream?: DestinationStream };
  /**
   * Slow-client limits in milliseconds; default `serverTimeouts`, TLS_HANDSHAKE_TIMEOUT_MS and
   * FIRST_REQUEST_TIMEOUT_MS (tests shorten them).
   */
  timeouts?: Partial<Pick<typeof serverTimeouts, 'headersTimeout' | 'requestTimeout'> & { handshakeTimeout: number; firstRequestTimeout: number }>;
  /** Counts the requests (when the metrics listener is on). */
  metrics?: HttpMetrics;
}

/** Server options shared by the HTTPS listener and the plain-HTTP one. */
export const serverTimeouts = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  keepAliveTimeout: 5_000,
  // How often Node looks for expired requests; its default (30 s) would let them overstay.
  connectionsCheckingInterval: 500,
} satisfies http.ServerOptions;

/**
 * Builds the HTTP app (it never listens): hooks in the contract's order, then the routes.
 * `main/serve.ts` listens; tests listen on port 0.
 */
export async function buildApp(config: Config, services: Services, options: AppOptions): Promise<App> {
  const proxies = trustedProxies(config.trustProxy);
  const { firstRequestTimeout = FIRST_REQUEST_TIMEOUT_MS, ...timeouts } = {
    ...serverTimeouts,
    handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS,
    ...options.timeouts,
  };
  const serverFactory: FastifyServerFactory = (handler) => {
    const server = https.createServer({ ...timeouts, cert: options.tls.cert, key: options.tls.key }, handler);
    trackHandshakes(server);
    keepReadingBehindLargeAnswers(server);
    limitConnections(server, connectionLimits(config, proxies, firstRequestTimeout), (details, message) => app.log.warn(details, message));
    return server;
  };
  const logs =
    options.logger === false
      ? undefined
      : typeof options.logger === 'object'
        ? createLogs(options.logger.level, options.logger.stream)
        : createLogs(config.logLevel);
  const app = Fastify({
    serverFactory,
    logger: logs === undefined ? false : logs.options,
    // Our own single line per request (http/plugins/request-log.ts) replaces Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: (address: string) => isTrusted(proxies, address),
    exposeHeadRoutes: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    clientErrorHandler: clientErrorAnswerer(timeouts, new AppError('invalid_json', 'Malformed HTTP request')),
    frameworkErrors: rerouteUnreadableUrl,
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ajv = createBodyAjv();
  app.setValidatorCompiler(bodyValidatorCompiler(ajv));
  // Responses are plain JSON.stringify: `fields=` may leave out fields the schema lists.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  registerErrorHandler(app);
  registerBodyParsers(app);
  registerRequestLog(app, logs?.requests);
  if (options.metrics !== undefined) registerRequestMetrics(app, options.metrics);
  registerEarlyAnswerTracking(app);
  // Every request passes these in this order: the contract's order of checks.
  registerProtocolCheck(app, proxies);
  registerVersionCheck(app);
  registerAuthentication(app, services.credentials, services.staffSessions, services.authFailures);
  registerRateLimit(app, services.rateLimiter, services.rateLimiterStatus);
  registerNotFound(app);
  registerRouteGuard(app);
  registerParamsAndProjection(app);
  registerApprovalGuard(app, services.credentials);
  registerIdempotentCreate(app, services.idempotency);
  await registerOpenApi(app);

  health(app, services.database, services.rateLimiterStatus);
  await registerAdminPage(app);
  registerWelcomePage(app);
  registerCustomerRoutes(app, services.customers);
  registerProductRoutes(app, services.products);
  registerSkuRoutes(app, services.skus);
  registerVariationRoutes(app, services.variations);
  registerCategoryRoutes(app, services.categories);
  const tradePriceEmbedder = new TradePriceEmbedder({ customers: services.customers, products: services.products });
  registerTradePriceRoutes(app, services.tradePrices, services.pricing, tradePriceEmbedder);
  registerPriceListRoutes(app, services.priceLists);
  registerCustomerGroupRoutes(app, services.customerGroups);
  registerChangeSetRoutes(app, services.changeSets);
  registerQuoteRoutes(app, services.pricing);
  registerImportRoutes(app, services.imports, services.changeSets);
  registerOrderRoutes(app, services.orders);
  registerWebhookRoutes(app, services.webhooks);
  registerEventRoutes(app, services.events);
  registerSessionRoutes(app, services.staffSessions, services.staff);
  registerPriceHistoryRoutes(app, services.history);
  registerStoreRoutes(app, services.credentials);
  await app.ready();
  return app;
}

/** Each listener's caps on open connections (`PRICEBOOK_MAX_CONNECTIONS…`), trusted proxies exempt from the per-address one. */
function connectionLimits(config: Config, proxies: BlockList, firstRequestMs: number): ConnectionLimits {
  return {
    max: config.maxConnections,
    perAddress: config.maxConnectionsPerAddress,
    exempt: (address) => isTrusted(proxies, address),
    firstRequestMs,
    label: `connection limits (${CONFIG_VARIABLES.maxConnections}, ${CONFIG_VARIABLES.maxConnectionsPerAddress})`,
  };
}

/**
 * The plain-HTTP listener (`main/serve.ts` listens on it): every request goes through the app,
 * whose first check refuses it (400 code 2) unless a trusted proxy says the client used https.
 * A request Node cannot even parse gets the same answer, in the error shape.
 */
export function createPlainHttpServer(app: App, config: Config, firstRequestTimeout = FIRST_REQUEST_TIMEOUT_MS): http.Server {
  const server = http.createServer(serverTimeouts, (request, response) => app.routing(request, response));
  server.on('clientError', clientErrorAnswerer(serverTimeouts, new AppError('invalid_protocol', INVALID_PROTOCOL_MESSAGE)));
  limitConnections(server, connectionLimits(config, trustedProxies(config.trustProxy), firstRequestTimeout), (details, message) =>
    app.log.warn(details, message),
  );
  return server;
}
