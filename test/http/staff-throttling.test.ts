import { describe, expect, it } from 'vitest';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { OffsetClock } from '../support/offset-clock.js';
import { asStaff, createSignedInStaff, sessionTokenIn, signIn, uniqueEmail } from '../support/staff.js';
import { suiteServer } from '../support/suite-server.js';

/** Password guessing throttled per account and per address; sessions' idle and absolute expiry. */
describe.each(await enginesUnderTest())('staff sign-in throttling and session expiry on %s', (engine) => {
  describe('per account', () => {
    const suite = suiteServer(engine, { tenants: 1, env: { PRICEBOOK_SIGN_IN_FAILURE_BUCKET: '3', PRICEBOOK_SIGN_IN_FAILURE_LEAK: '0.001' } });

    it('answers 429 with Retry-After once an account has had too many wrong passwords, even to the right one; other accounts go on', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const bystander = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      // Three failures are tolerated; the fourth is refused.
      for (let attempt = 0; attempt < 3; attempt++) expectError(await signIn(suite.server, member.email, `wrong password ${attempt}`), 401, 3);
      const refused = await signIn(suite.server, member.email, 'wrong password 3');
      expectError(refused, 429, 11);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const right = await signIn(suite.server, member.email.toUpperCase(), member.password);
      expectError(right, 429, 11);
      expect(right.headers['set-cookie']).toBeUndefined();
      expect((await signIn(suite.server, bystander.email, bystander.password)).status).toBe(201);
      // The account's live session is not affected.
      expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, member.token))).status).toBe(200);
    });

    it('counts a wrong current password of a password change as a failed sign-in: a session taken over cannot guess it', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'editor');
      const change = (currentPassword: string) =>
        suite.server.request('POST', '/v1/session/password', { ...asStaff(suite.server, member.token), body: { currentPassword, newPassword: 'a brand new password' } });
      for (let attempt = 0; attempt < 3; attempt++) expectError(await change(`wrong password ${attempt}`), 422, 10);
      const refused = await change(member.password);
      expectError(refused, 429, 11);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The same bucket as sign-in's: the account's sign-in waits too.
      expectError(await signIn(suite.server, member.email, member.password), 429, 11);
      expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, member.token))).status).toBe(200);
    });

    it('throttles an unknown e-mail the same way', async () => {
      const email = uniqueEmail('nobody');
      const answers = [];
      for (let attempt = 0; attempt < 4; attempt++) answers.push((await signIn(suite.server, email, 'any password at all')).status);
      expect(answers).toEqual([401, 401, 401, 429]);
    });
  });

  describe('per address', () => {
    const suite = suiteServer(engine, { tenants: 1, env: { PRICEBOOK_AUTH_FAILURE_BUCKET: '4', PRICEBOOK_AUTH_FAILURE_LEAK: '0.001' } });

    it('answers 429 once an address has had too many failures, whichever accounts they named', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const answers = [];
      for (let attempt = 0; attempt < 5; attempt++) answers.push((await signIn(suite.server, uniqueEmail('guess'), 'a guessed password')).status);
      expect(answers).toEqual([401, 401, 401, 401, 429]);
      const right = await signIn(suite.server, member.email, member.password);
      expectError(right, 429, 11);
      expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });
  });

  describe('expiry', () => {
    const clock = new OffsetClock();
    const suite = suiteServer(engine, { tenants: 1, services: { clock }, env: { PRICEBOOK_SESSION_IDLE: '600', PRICEBOOK_SESSION_LIFETIME: '3600' } });

    it('ends a session unused for the idle time', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      clock.advance(590_000);
      expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, member.token))).status).toBe(200);
      clock.advance(590_000);
      expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, member.token))).status).toBe(200);
      clock.advance(601_000);
      const expired = await suite.server.request('GET', '/v1/session', asStaff(suite.server, member.token));
      expectError(expired, 401, 3);
      expect(expired.headers['set-cookie']).toMatch(/^pricebook_session=; Max-Age=0;/);
    });

    it('ends a session at its absolute expiry however busy it is, and sets the cookie to last as long', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const response = await signIn(suite.server, member.email, member.password);
      expect(response.headers['set-cookie']).toMatch(/; Max-Age=3600;/);
      const token = sessionTokenIn(response)!;
      for (let elapsed = 0; elapsed + 500_000 < 3_600_000; elapsed += 500_000) {
        clock.advance(500_000);
        expect((await suite.server.request('GET', '/v1/customers', asStaff(suite.server, token))).status).toBe(200);
      }
      clock.advance(500_000);
      expectError(await suite.server.request('GET', '/v1/customers', asStaff(suite.server, token)), 401, 3);
    });

    it('deletes sessions a day past their absolute expiry, and no other', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const sessions = () => suite.server.services.database.db.selectFrom('staff_sessions').select('id').where('staff_id', '=', member.id).execute();
      expect(await sessions()).toHaveLength(1);
      expect(await suite.server.services.staffSessions.purgeExpired(clock.now(), 1000)).toBe(0);
      clock.advance(3_600_000 + 24 * 3_600_000 + 1000);
      const fresh = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      expect(await suite.server.services.staffSessions.purgeExpired(clock.now(), 1000)).toBeGreaterThanOrEqual(1);
      expect(await sessions()).toEqual([]);
      expect((await suite.server.request('GET', '/v1/session', asStaff(suite.server, fresh.token))).status).toBe(200);
    });
  });
});
