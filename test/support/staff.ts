import { randomBytes } from 'node:crypto';
import { AGENT_KEEP_ALIVE } from './agent-keep-alive.js';
import { Agent, request } from 'undici';
import { expect } from 'vitest';
import type { StaffRole } from '../../src/modules/staff/roles.js';
import type { HttpResponse, RequestOptions, TestServer } from './test-server.js';

/** A staff member made through the service, as `pricebook staff create` makes one. */
export interface StaffMemberFixture {
  id: number;
  email: string;
  /** The member's current password. */
  password: string;
}

let sequence = 0;

export function uniqueEmail(prefix = 'staff'): string {
  return `${prefix}-${++sequence}-${randomBytes(3).toString('hex')}@example.com`;
}

/** The whole `Set-Cookie` line of cookie `name` in an answer, or undefined. */
export function setCookieLine(response: HttpResponse, name: string): string | undefined {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return lines.find((line) => line.startsWith(`${name}=`));
}

/** The session token a sign-in's `Set-Cookie` carries, or undefined. */
export function sessionTokenIn(response: HttpResponse): string | undefined {
  return /^pricebook_session=([^;]*)/.exec(setCookieLine(response, 'pricebook_session') ?? '')?.[1];
}

/** The device cookie a successful sign-in sets (docs/staff.md, "Throttling"), or undefined. */
export function deviceCookieIn(response: HttpResponse): string | undefined {
  return /^pricebook_device=([^;]*)/.exec(setCookieLine(response, 'pricebook_device') ?? '')?.[1];
}

export async function signIn(server: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return server.request('POST', '/v1/session', { body: { email, password }, headers });
}

/** A browser at another loopback address (127.0.0.2, 127.0.0.3): its connections are bound to it. */
export interface BrowserAt {
  /** A sign-in from this address, bringing `deviceCookie` when given. */
  signIn(email: string, password: string, deviceCookie?: string): Promise<HttpResponse>;
  /** Opens `count` connections (concurrent `GET /healthz`), kept for the requests that follow. */
  connect(count: number): Promise<void>;
  close(): Promise<void>;
}

export function browserAt(server: Pick<TestServer, 'baseUrl' | 'ca'>, localAddress: string, connections = 32): BrowserAt {
  const agent = new Agent({ localAddress, connect: { ca: server.ca, servername: 'localhost' }, connections, ...AGENT_KEEP_ALIVE });
  return {
    async signIn(email, password, deviceCookie) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(deviceCookie !== undefined && { cookie: `pricebook_device=${deviceCookie}` }),
      };
      const response = await request(`${server.baseUrl}/v1/session`, { method: 'POST', headers, body: JSON.stringify({ email, password }), dispatcher: agent });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown), text };
    },
    async connect(count) {
      await Promise.all(Array.from({ length: count }, async () => (await request(`${server.baseUrl}/healthz`, { dispatcher: agent })).body.text()));
    },
    close: () => agent.close(),
  };
}

/** Runs `work` with a browser at `localAddress`, closed after. */
export async function withBrowserAt(
  server: Pick<TestServer, 'baseUrl' | 'ca'>,
  localAddress: string,
  work: (browser: BrowserAt) => Promise<void>,
  connections?: number,
): Promise<void> {
  const browser = browserAt(server, localAddress, connections);
  try {
    await work(browser);
  } finally {
    await browser.close();
  }
}

/** Answers counted by status: `{"401": 10, "429": 20}`. */
export function statusCounts(responses: readonly HttpResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

/**
 * `wrong` sign-ins with wrong passwords and then one with the right one, all at once, over
 * connections opened beforehand (so they arrive together, within one scrypt's time).
 * Answers in the order sent.
 */
export async function signInBurst(server: TestServer, email: string, rightPassword: string, wrong: number): Promise<HttpResponse[]> {
  await Promise.all(Array.from({ length: wrong + 1 }, () => server.request('GET', '/healthz')));
  const passwords = [...Array.from({ length: wrong }, (_, index) => `wrong password ${index}`), rightPassword];
  return Promise.all(passwords.map((password) => signIn(server, email, password)));
}

/** The server's own origin, as a browser on its pages sends it. */
export function originOf(server: TestServer): string {
  return server.baseUrl;
}

/** A request made with the session cookie; `origin: true` sends the server's own `Origin`. */
export function asStaff(server: TestServer, token: string, options: RequestOptions & { origin?: boolean | string } = {}): RequestOptions {
  const { origin = true, headers, ...rest } = options;
  const sent: Record<string, string | string[]> = { cookie: `pricebook_session=${token}` };
  if (origin !== false) sent.origin = origin === true ? originOf(server) : origin;
  return { ...rest, headers: { ...sent, ...headers } };
}

/** A member of `role` in the store, signed in once with the one-time password and set a password of their own. */
export async function createSignedInStaff(server: TestServer, storeId: number, role: StaffRole): Promise<StaffMemberFixture & { token: string }> {
  const email = uniqueEmail(role);
  const issued = await server.services.staff.create(storeId, { email, name: `A ${role}`, role });
  const first = await signIn(server, email, issued.initialPassword);
  expect(first.status, first.text).toBe(201);
  const token = sessionTokenIn(first)!;
  const password = `${role} password ${randomBytes(4).toString('hex')}`;
  const changed = await server.request(
    'POST',
    '/v1/session/password',
    asStaff(server, token, { body: { currentPassword: issued.initialPassword, newPassword: password } }),
  );
  expect(changed.status, changed.text).toBe(204);
  return { id: issued.id, email, password, token };
}
