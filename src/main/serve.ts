import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/config.js';
import { buildApp, createPlainHttpServer } from '../app/build-app.js';
import { seedDemoStore } from '../app/demo.js';
import { buildServices, type ServiceOptions } from '../app/services.js';
import { buildDeliveryWorker } from '../app/delivery-worker.js';
import { buildChangeSetScheduler, buildMaintenanceLoop } from '../app/maintenance.js';
import { buildImportRunner } from '../app/import-runner.js';
import { loadTlsPair } from '../app/tls.js';
import { buildMetrics, deliveryObserver, listenForScrapes } from '../app/metrics.js';
import { displayHost, listeningText, readableLogStream, startBanner } from '../app/terminal-output.js';

export interface RunningServer {
  /** HTTPS port actually bound (useful with port 0). */
  port: number;
  /** Plain-HTTP port actually bound, or undefined when disabled. */
  httpPort: number | undefined;
  /** Address and port of the metrics listener, or undefined when disabled. */
  metrics: { host: string; port: number } | undefined;
  stop(): Promise<void>;
}

/**
 * `pricebook serve`: HTTPS API, the plain-HTTP listener that refuses (or serves trusted
 * proxies), the demo store on an empty data dir, and graceful shutdown on SIGTERM / SIGINT.
 * `serviceOptions` go to `buildServices`; the CLI passes none.
 */
export async function serve(config: Config, out: NodeJS.WritableStream = process.stdout, serviceOptions: ServiceOptions = {}): Promise<RunningServer> {
  const services = await buildServices(config, serviceOptions);
  const tls = await loadTlsPair(config);
  const metrics = config.metricsPort === 0 ? undefined : buildMetrics(services, { api: true, deliveries: config.webhookWorker });
  // A person at a terminal reads lines and a banner; a pipe, a file or a service manager gets JSON.
  const atTerminal = (out as { isTTY?: boolean }).isTTY === true;
  const logger = atTerminal ? { level: config.logLevel, stream: readableLogStream(out) } : undefined;
  const app = await buildApp(config, services, { tls, metrics: metrics?.http, logger });
  app.log.info({ database: services.database.description, tls: tls.source }, 'starting');

  // Unasked, the demo token is printed only to a person at a terminal, never into logs.
  const empty = !(await services.uow.repos.stores.any());
  const wantDemo = config.demo ?? atTerminal;
  const demo = wantDemo && empty ? await seedDemoStore(services) : undefined;
  if (empty && !wantDemo && config.demo === undefined) {
    app.log.info('no demo store created: the output is not a terminal (PRICEBOOK_DEMO=1 creates one and prints its token)');
  }

  await app.listen({ port: config.port, host: config.host, listenTextResolver: listeningText });
  const port = (app.server.address() as AddressInfo).port;

  let plain: http.Server | undefined;
  if (config.httpPort !== 0) {
    plain = createPlainHttpServer(app, config);
    await new Promise<void>((resolve, reject) => {
      plain?.once('error', reject).listen(config.httpPort, config.host, () => resolve());
    });
  }
  const httpPort = plain === undefined ? undefined : (plain.address() as AddressInfo).port;
  app.log.info({ port, httpPort, host: config.host }, 'listening');
  const metricsListener = metrics === undefined ? undefined : await listenForScrapes(config, metrics, app.log);
  if (metricsListener !== undefined)
    app.log.info({ host: metricsListener.host, port: metricsListener.port, token: config.metricsToken !== undefined }, 'metrics listening');
  const worker = config.webhookWorker ? buildDeliveryWorker(config, services, app.log, deliveryObserver(metrics)) : undefined;
  worker?.start();
  const maintenance = config.maintenance ? buildMaintenanceLoop(services, app.log) : undefined;
  maintenance?.start();
  const scheduler = config.maintenance ? buildChangeSetScheduler(services, app.log) : undefined;
  scheduler?.start();
  // CSV imports are worked here, by every instance that serves the API (each import by one).
  const importRunner = buildImportRunner(config, services, app.log);
  importRunner.start();

  const origin = `https://${displayHost(config.host)}:${port}`;
  if (atTerminal || demo !== undefined) out.write(startBanner(origin));
  if (demo !== undefined) {
    const caFlag = config.tlsCertFile === undefined ? `--cacert '${tls.source.replace(/ \(generated.*$/, '')}'` : '';
    out.write(
      [
        '',
        `Demo store ${demo.storeId} created. API token (shown once, keep it):`,
        '',
        `  ${demo.token}`,
        '',
        'Admin page: sign in as its owner with this one-time password, then choose your own:',
        '',
        `  ${demo.staff.email}  ${demo.staff.initialPassword}`,
        '',
        'Try it:',
        '',
        `  curl ${caFlag} -H 'Authorization: Bearer ${demo.token}' '${origin}/v1/customers'`,
        '',
        '',
      ].join('\n'),
    );
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      app.log.info('shutting down: finishing in-flight requests');
      await Promise.all([
        new Promise<void>((resolve) => (plain === undefined ? resolve() : plain.close(() => resolve()))),
        metricsListener?.close(),
        app.close(),
        worker?.stop(),
        maintenance?.stop(),
        scheduler?.stop(),
        importRunner.stop(),
      ]);
      metrics?.stop();
      await services.close();
    })();
    return stopping;
  };
  return { port, httpPort, metrics: metricsListener && { host: metricsListener.host, port: metricsListener.port }, stop };
}
