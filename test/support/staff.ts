import { randomBytes } from 'node:crypto';
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

/** The session token a sign-in's `Set-Cookie` carries, or undefined. */
export function sessionTokenIn(response: HttpResponse): string | undefined {
  const header = response.headers['set-cookie'];
  const cookie = Array.isArray(header) ? header[0] : header;
  return cookie === undefined ? undefined : /^pricebook_session=([^;]*)/.exec(cookie)?.[1];
}

export async function signIn(server: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return server.request('POST', '/v1/session', { body: { email, password }, headers });
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
  const changed = await server.request('POST', '/v1/session/password', asStaff(server, token, { body: { currentPassword: issued.initialPassword, newPassword: password } }));
  expect(changed.status, changed.text).toBe(204);
  return { id: issued.id, email, password, token };
}
