import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { POSTGRES_ADMIN_URL, enginesUnderTest } from '../support/engines.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** README: `/healthz` answers 200 while the database answers, "503 when the database does not answer". */
describe.each(await enginesUnderTest())('/healthz with the database gone on %s', (engine) => {
  it('answers 503 {"status":"unavailable","database":"unreachable"} while the database does not answer', async () => {
    const server = await startTestServer(engine);
    let restore: (() => Promise<void>) | undefined;
    try {
      expect(await health(server)).toEqual({ status: 200, body: { status: 'ok', database: 'ok', rateLimiter: 'memory' } });
      restore = await takeDatabaseAway(server);
      const down = await health(server);
      expect(down).toEqual({ status: 503, body: { status: 'unavailable', database: 'unreachable', rateLimiter: 'memory' } });
      if (engine === 'postgres') {
        // Back once the database takes connections again.
        await restore();
        restore = undefined;
        const deadline = Date.now() + 10_000;
        while ((await health(server)).status !== 200 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await health(server)).toEqual({ status: 200, body: { status: 'ok', database: 'ok', rateLimiter: 'memory' } });
      }
    } finally {
      await restore?.();
      await server.close();
    }
  });
});

async function health(server: TestServer): Promise<{ status: number; body: unknown }> {
  const response = await server.request('GET', '/healthz');
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return { status: response.status, body: response.body };
}

/**
 * PostgreSQL: the database refuses new connections and the server's are ended, as when it is
 * down; the returned function lets it take connections again. SQLite lives in the process: the
 * closest to "does not answer" is its connection closed under the app (restored by nothing).
 */
async function takeDatabaseAway(server: TestServer): Promise<() => Promise<void>> {
  if (server.engine === 'sqlite') {
    await server.services.database.close();
    return async () => undefined;
  }
  const name = new URL(server.config.databaseUrl!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
  } finally {
    await admin.end();
  }
  return async () => {
    const again = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await again.connect();
    try {
      await again.query(`alter database ${name} allow_connections true`);
    } finally {
      await again.end();
    }
  };
}
