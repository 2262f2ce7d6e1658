/**
 * The ceiling of the read scenarios, run as a process of its own:
 * `node bare-server.js <spec.json>`. A bare Fastify HTTPS server (same certificate, no hooks,
 * no database) that answers the trade-price and quote paths with the JSON bodies the real server sent.
 * Prints `listening <port>` once it listens on 127.0.0.1.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

export interface BareServerSpec {
  certFile: string;
  keyFile: string;
  /** Body of `GET /v1/trade-customer-product-prices/:id`. */
  oneBody: string;
  /** Body of `GET /v1/trade-customer-product-prices`. */
  listBody: string;
  /** Body of `POST /v1/quotes`. */
  quoteBody: string;
  /** Body of `GET /v1/trade-customer-product-prices/effective` (the as-of scenario). */
  asOfBody: string;
}

const spec = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as BareServerSpec;
const app = Fastify({ https: { cert: fs.readFileSync(spec.certFile), key: fs.readFileSync(spec.keyFile) }, logger: false });
app.get('/v1/trade-customer-product-prices/effective', (_request, reply) => reply.type('application/json; charset=utf-8').send(spec.asOfBody));
app.get('/v1/trade-customer-product-prices/:id', (_request, reply) => reply.type('application/json; charset=utf-8').send(spec.oneBody));
app.get('/v1/trade-customer-product-prices', (_request, reply) => reply.type('application/json; charset=utf-8').send(spec.listBody));
// The request body is parsed, as any JSON POST is, and not looked at.
app.post('/v1/quotes', (_request, reply) => reply.type('application/json; charset=utf-8').send(spec.quoteBody));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
