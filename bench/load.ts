/**
 * The load generator, run as a process of its own: `node load.js <spec.json>`. Fires the
 * spec's requests with autocannon (a warm-up first, then the measured run) at 127.0.0.1 and
 * prints one JSON line: a `LoadResult`.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { type LoadResult, type LoadSpec, pathAt } from './load-spec.js';

const spec = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as LoadSpec;
const url = new URL(spec.url);
if (url.hostname !== '127.0.0.1') throw new Error(`load only goes to 127.0.0.1, not ${url.hostname}`);
const body = spec.bodyFile === undefined ? undefined : fs.readFileSync(spec.bodyFile);
const bodies = (spec.bodyFiles ?? []).map((file) => fs.readFileSync(file));

function fire(seconds: number, label: string): Promise<{ result: autocannon.Result; sent: number }> {
  let next = 0;
  return autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    timeout: 10,
    servername: 'localhost',
    requests: [
      {
        method: spec.method,
        headers: spec.headers,
        body,
        // Paths in turn, shared by every connection; every other request with a key of its own.
        setupRequest: (request) => {
          const n = next++;
          const path = pathAt(spec.paths, n);
          if (bodies.length > 0) return { ...request, path, body: bodies[n % bodies.length] };
          if (spec.idempotencyKeyPrefix === undefined || n % 2 === 1) return { ...request, path };
          return { ...request, path, headers: { ...request.headers, 'idempotency-key': `${spec.idempotencyKeyPrefix}-${label}-${n}` } };
        },
      },
    ],
  }).then((result) => ({ result, sent: next }));
}

if (spec.warmupSeconds > 0) await fire(spec.warmupSeconds, 'w');
const { result, sent } = await fire(spec.seconds, 'm');
const output: LoadResult = {
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  sent,
  seconds: result.duration,
  perSecond: result['2xx'] / result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0])),
};
process.stdout.write(`${JSON.stringify(output)}\n`);
