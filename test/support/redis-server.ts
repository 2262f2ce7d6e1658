import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';

/** A Redis server of the test's own on a free loopback port, which the test may kill and restart. */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Kills the server (SIGKILL: an outage, not a shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that accepts nothing and answers nothing, then answers again. */
  pause(): void;
  resume(): void;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: 'ignore',
    });
    const exited = new Promise<never>((_resolve, reject) => child?.once('exit', (code) => reject(new Error(`redis-server exited with ${String(code)}`))));
    exited.catch(() => undefined);
    const deadline = Date.now() + 5000;
    for (;;) {
      const client = new Redis(url, { lazyConnect: true, connectTimeout: 200, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await Promise.race([client.connect().then(() => client.ping()), exited]);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 5 s: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        client.disconnect();
      }
    }
  };

  const kill = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };

  await start();
  return { port, url, kill, start, pause: () => child?.kill('SIGSTOP'), resume: () => child?.kill('SIGCONT') };
}
