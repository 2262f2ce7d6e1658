import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { asStaff, createSignedInStaff, sessionTokenIn, setCookieLine, signIn, uniqueEmail } from '../support/staff.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * Staff sign-in and sessions from outside, over real HTTPS (docs/staff.md): the cookie's flags,
 * session fixation, cross-site requests, a disabled or reset account's live sessions, sign-out,
 * the one answer for a wrong e-mail or password, the first password change.
 */
describe.each(await enginesUnderTest())('staff sessions on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });

  async function customerCount(): Promise<number> {
    const response = await suite.server.request('GET', '/v1/customers/count', { token: suite.tenant.token });
    return (response.body as { count: number }).count;
  }

  it('signs in with a one-time password, answers the member and sets an HttpOnly, Secure, SameSite=Strict cookie for every path', async () => {
    const email = uniqueEmail();
    const issued = await suite.server.services.staff.create(suite.tenant.storeId, { email, name: 'Ada Editor', role: 'editor' });
    const response = await signIn(suite.server, email.toUpperCase(), issued.initialPassword);
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: issued.id,
      email,
      name: 'Ada Editor',
      role: 'editor',
      storeId: suite.tenant.storeId,
      mustChangePassword: true,
      createdAt: issued.createdAt,
    });
    // The session cookie, and the device cookie (staff-throttling.test.ts).
    const cookies = response.headers['set-cookie'] as string[];
    expect(cookies.map((line) => line.slice(0, line.indexOf('=')))).toEqual(['pricebook_session', 'pricebook_device']);
    const [pair, ...attributes] = setCookieLine(response, 'pricebook_session')!.split('; ');
    expect(pair).toMatch(/^pricebook_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Strict', 'Secure']);
    // Only a hash of the token is stored.
    const token = sessionTokenIn(response)!;
    const rows = await suite.server.services.database.db.selectFrom('staff_sessions').select(['token_hash']).where('staff_id', '=', issued.id).execute();
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
  });

  it('allows nothing but the password change until the one-time password is replaced', async () => {
    const email = uniqueEmail();
    const issued = await suite.server.services.staff.create(suite.tenant.storeId, { email, name: 'New Member', role: 'owner' });
    const token = sessionTokenIn(await signIn(suite.server, email, issued.initialPassword))!;
    expectError(await suite.server.request('GET', '/v1/customers', asStaff(suite.server, token)), 403, 4, /password must be changed/);
    const before = await customerCount();
    expectError(
      await suite.server.request('POST', '/v1/customers', asStaff(suite.server, token, { body: { email: uniqueEmail('customer') } })),
      403,
      4,
      /password must be changed/,
    );
    expect(await customerCount()).toBe(before);
    expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, token))).body).toMatchObject({ id: issued.id, mustChangePassword: true });

    const change = (body: unknown) => suite.server.request('POST', '/v1/session/password', asStaff(suite.server, token, { body }));
    const wrongCurrent = await change({ currentPassword: 'not the password', newPassword: 'a long enough password' });
    expectError(wrongCurrent, 422, 10);
    expect((wrongCurrent.body as { errors: unknown }).errors).toEqual([{ field: 'currentPassword', message: 'is not the current password' }]);
    const tooShort = await change({ currentPassword: issued.initialPassword, newPassword: 'short' });
    expectError(tooShort, 422, 10);
    expect((tooShort.body as { errors: unknown }).errors).toEqual([{ field: 'newPassword', message: 'A password must have at least 12 characters' }]);
    expectError(await change({ currentPassword: issued.initialPassword, newPassword: issued.initialPassword }), 422, 10);

    expect((await change({ currentPassword: issued.initialPassword, newPassword: 'correct horse battery' })).status).toBe(204);
    expect((await suite.server.request('GET', '/v1/customers', asStaff(suite.server, token))).status).toBe(200);
    expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, token))).body).toMatchObject({ mustChangePassword: false });
    expectError(await signIn(suite.server, email, issued.initialPassword), 401, 3);
    expect((await signIn(suite.server, email, 'correct horse battery')).status).toBe(201);
  });

  it('never quotes a password in a 422: a refused password field carries no value, a refused e-mail its own', async () => {
    const refusedSignIn = await suite.server.request('POST', '/v1/session', { body: { email: 7, password: '' } });
    expectError(refusedSignIn, 422, 10);
    expect((refusedSignIn.body as { errors: unknown }).errors).toEqual([
      { field: 'email', message: 'must be string', value: 7 },
      { field: 'password', message: 'must NOT have fewer than 1 characters' },
    ]);
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'owner');
    const change = await suite.server.request(
      'POST',
      '/v1/session/password',
      asStaff(suite.server, member.token, { body: { currentPassword: 123456789012345, newPassword: true } }),
    );
    expectError(change, 422, 10);
    expect((change.body as { errors: unknown }).errors).toEqual([
      { field: 'currentPassword', message: 'must be string' },
      { field: 'newPassword', message: 'must be string' },
    ]);
    expect(change.text).not.toContain('123456789012345');
  });

  it('measures a new password after NFC: six accented letters typed as letter and accent are six characters, too few', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
    const change = (newPassword: string) =>
      suite.server.request('POST', '/v1/session/password', asStaff(suite.server, member.token, { body: { currentPassword: member.password, newPassword } }));
    // 12 code points, 6 characters after NFC.
    const tooShort = await change('e\u0301'.repeat(6));
    expectError(tooShort, 422, 10);
    expect((tooShort.body as { errors: unknown }).errors).toEqual([{ field: 'newPassword', message: 'A password must have at least 12 characters' }]);
    // 400 code points, 200 characters after NFC: the longest allowed.
    const decomposed = 'e\u0301'.repeat(200);
    expect((await change(decomposed)).status).toBe(204);
    // The same password, typed composed, signs in.
    expect((await signIn(suite.server, member.email, '\u00e9'.repeat(200))).status).toBe(201);
  });

  it('gives a wrong password and an unknown e-mail the same answer', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
    const wrongPassword = await signIn(suite.server, member.email, 'not the password at all');
    const unknownEmail = await signIn(suite.server, uniqueEmail('nobody'), 'not the password at all');
    const disabled = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
    await suite.server.services.staff.disable(suite.tenant.storeId, disabled.email);
    const disabledRight = await signIn(suite.server, disabled.email, disabled.password);
    const shown = (response: typeof wrongPassword) => {
      // Everything but the date and the request's own id.
      const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => name !== 'date' && name !== 'x-request-id'));
      return { status: response.status, text: response.text, headers };
    };
    expectError(wrongPassword, 401, 3);
    expect(shown(unknownEmail)).toEqual(shown(wrongPassword));
    expect(shown(disabledRight)).toEqual(shown(wrongPassword));
    expect(wrongPassword.headers['set-cookie']).toBeUndefined();
  });

  describe('session fixation', () => {
    it('never accepts a session token the client made up, and clears it', async () => {
      const invented = 'A'.repeat(43);
      const response = await suite.server.request('GET', '/v1/session', asStaff(suite.server, invented));
      expectError(response, 401, 3);
      expect(response.headers['set-cookie']).toMatch(/^pricebook_session=; Max-Age=0; /);
      expectError(await suite.server.request('GET', '/v1/customers', asStaff(suite.server, 'x')), 401, 3);
    });

    it('always issues a new token at sign-in, and ends the session the browser brought', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const invented = 'B'.repeat(43);
      const first = await signIn(suite.server, member.email, member.password, { cookie: `pricebook_session=${invented}` });
      const firstToken = sessionTokenIn(first)!;
      expect(firstToken).not.toBe(invented);
      expectError(await suite.server.request('GET', '/v1/session', asStaff(suite.server, invented)), 401, 3);

      const second = await signIn(suite.server, member.email, member.password, { cookie: `pricebook_session=${firstToken}` });
      const secondToken = sessionTokenIn(second)!;
      expect(secondToken).not.toBe(firstToken);
      expectError(await suite.server.request('GET', '/v1/session', asStaff(suite.server, firstToken)), 401, 3);
      expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, secondToken))).status).toBe(200);
    });

    it('refuses a request carrying the cookie twice', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const response = await suite.server.request(
        'GET',
        '/v1/session',
        asStaff(suite.server, member.token, { headers: { cookie: `pricebook_session=${member.token}; pricebook_session=${'C'.repeat(43)}` } }),
      );
      expectError(response, 401, 3);
    });
  });

  describe('cross-site requests', () => {
    it('refuses a change made with the cookie from another origin, or with no Origin, and stores nothing', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'owner');
      const before = await customerCount();
      const create = (origin: boolean | string) =>
        suite.server.request('POST', '/v1/customers', asStaff(suite.server, member.token, { origin, body: { email: uniqueEmail('customer') } }));
      expectError(await create('https://evil.example'), 403, 4, /Cross-origin/);
      expectError(await create(false), 403, 4, /Cross-origin/);
      expectError(await create('null'), 403, 4, /Cross-origin/);
      expectError(await create(`${suite.server.baseUrl}/path`), 403, 4, /Cross-origin/);
      expectError(await create(suite.server.baseUrl.replace('https:', 'http:')), 403, 4, /Cross-origin/);
      expect(await customerCount()).toBe(before);
      const deleteSession = await suite.server.request('DELETE', '/v1/session', asStaff(suite.server, member.token, { origin: 'https://evil.example' }));
      expectError(deleteSession, 403, 4);
      // Reads need no Origin; the same origin may change things.
      expect((await suite.server.request('GET', '/v1/customers', asStaff(suite.server, member.token, { origin: false }))).status).toBe(200);
      expect((await create(true)).status).toBe(201);
      expect(await customerCount()).toBe(before + 1);
    });

    it('refuses a sign-in from another origin', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const response = await signIn(suite.server, member.email, member.password, { origin: 'https://evil.example' });
      expectError(response, 403, 4);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect((await signIn(suite.server, member.email, member.password, { origin: suite.server.baseUrl })).status).toBe(201);
    });
  });

  it('ends a disabled account’s live sessions at once', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'editor');
    const other = sessionTokenIn(await signIn(suite.server, member.email, member.password))!;
    expect((await suite.server.request('GET', '/v1/customers', asStaff(suite.server, member.token))).status).toBe(200);
    await suite.server.services.staff.disable(suite.tenant.storeId, String(member.id));
    for (const token of [member.token, other]) expectError(await suite.server.request('GET', '/v1/customers', asStaff(suite.server, token)), 401, 3);
    expectError(await signIn(suite.server, member.email, member.password), 401, 3);
  });

  it('ends every session of an account that is reset; the new one-time password signs in', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'editor');
    const reset = await suite.server.services.staff.reset(suite.tenant.storeId, member.email);
    expectError(await suite.server.request('GET', '/v1/session', asStaff(suite.server, member.token)), 401, 3);
    expectError(await signIn(suite.server, member.email, member.password), 401, 3);
    const again = await signIn(suite.server, member.email, reset.initialPassword);
    expect(again.body).toMatchObject({ id: member.id, mustChangePassword: true });
  });

  it('signs out: every session of the member ends, this one and another browser’s, and the cookie is cleared', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
    const bystander = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
    const other = sessionTokenIn(await signIn(suite.server, member.email, member.password))!;
    const out = await suite.server.request('DELETE', '/v1/session', asStaff(suite.server, member.token));
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie']).toBe('pricebook_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict');
    expectError(await suite.server.request('GET', '/v1/session', asStaff(suite.server, member.token)), 401, 3);
    expectError(await suite.server.request('GET', '/v1/session', asStaff(suite.server, other)), 401, 3);
    // Another member's session is not theirs to end.
    expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, bystander.token))).status).toBe(200);
  });

  it('answers 401 to the session’s operations without a session, and to an API key', async () => {
    expectError(await suite.server.request('GET', '/v1/session'), 401, 3);
    expectError(await suite.server.request('DELETE', '/v1/session'), 401, 3);
    expectError(await suite.server.request('GET', '/v1/session', { token: suite.tenant.token }), 401, 3, /API key/);
    expectError(
      await suite.server.request('POST', '/v1/session/password', { token: suite.tenant.token, body: { currentPassword: 'x', newPassword: 'y' } }),
      401,
      3,
    );
  });

  it('validates the sign-in body as any other (422), without counting it as a failure', async () => {
    expectError(await suite.server.request('POST', '/v1/session', { body: { email: 'a@example.com' } }), 422, 10);
    expectError(await suite.server.request('POST', '/v1/session', { body: { email: 'a@example.com', password: 'x', extra: 1 } }), 422, 10);
    expectError(
      await suite.server.request('POST', '/v1/session', { rawBody: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      7,
    );
  });
});
