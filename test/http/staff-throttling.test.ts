import { describe, expect, it } from 'vitest';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { OffsetClock } from '../support/offset-clock.js';
import {
  asStaff,
  createSignedInStaff,
  deviceCookieIn,
  sessionTokenIn,
  setCookieLine,
  signIn,
  signInBurst,
  statusCounts,
  uniqueEmail,
  withBrowserAt,
} from '../support/staff.js';
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
        suite.server.request('POST', '/v1/session/password', {
          ...asStaff(suite.server, member.token),
          body: { currentPassword, newPassword: 'a brand new password' },
        });
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

  describe('a burst of concurrent sign-ins (default buckets)', () => {
    const clock = new OffsetClock();
    // scrypt at 2^13 (8 MiB, some 25 ms a hash): every sign-in of a burst arrives within one scrypt's time.
    const suite = suiteServer(engine, { tenants: 1, services: { clock }, env: { PRICEBOOK_PASSWORD_COST: '13' } });
    const BUCKET = 10;

    it('checks at most the bucket’s size of passwords, however many arrive at once; after Retry-After, only what leaked', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const first = await signInBurst(suite.server, member.email, member.password, 29);
      const counts = statusCounts(first);
      // Every answer that is not a 429 had its password checked.
      expect(first.length - (counts['429'] ?? 0), JSON.stringify(counts)).toBeLessThanOrEqual(BUCKET);
      const failures = counts['401'] ?? 0;
      const waits = first.filter((response) => response.status === 429).map((response) => Number(response.headers['retry-after']));
      expect(waits.length).toBeGreaterThanOrEqual(first.length - BUCKET);
      // The default leak, 0.017 a second: one place is free again after Retry-After (59 s), beside
      // any the first burst left (a right password gives its place back).
      clock.advance(Math.max(...waits) * 1000);
      const second = await signInBurst(suite.server, member.email, member.password, 19);
      const again = statusCounts(second);
      const checked = second.length - (again['429'] ?? 0);
      expect(checked, JSON.stringify(again)).toBeGreaterThanOrEqual(1);
      expect(checked, JSON.stringify(again)).toBeLessThanOrEqual(BUCKET - failures + 1);
    });
  });

  describe('device cookies (lockout by others)', () => {
    const clock = new OffsetClock();
    const suite = suiteServer(engine, {
      tenants: 1,
      services: { clock },
      env: { PRICEBOOK_SIGN_IN_FAILURE_BUCKET: '3', PRICEBOOK_SIGN_IN_FAILURE_LEAK: '0.001' },
    });
    const member = '127.0.0.2';
    const attacker = '127.0.0.3';

    /** Fills the account's bucket with wrong passwords from the attacker's address: three 401s, then 429. */
    async function lockOut(email: string): Promise<void> {
      await withBrowserAt(suite.server, attacker, async (from) => {
        const answers = [];
        for (let attempt = 0; attempt < 4; attempt++) answers.push((await from.signIn(email, `a guess ${attempt}`)).status);
        expect(answers).toEqual([401, 401, 401, 429]);
      });
    }

    it('sets a signed device cookie at sign-in: HttpOnly, Secure, SameSite=Strict, for the sign-in path only, for 90 days', async () => {
      const staff = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const response = await signIn(suite.server, staff.email, staff.password);
      expect(response.status).toBe(201);
      const [pair, ...attributes] = setCookieLine(response, 'pricebook_device')!.split('; ');
      expect(pair).toMatch(/^pricebook_device=v1\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/);
      expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=7776000', 'Path=/v1/session', 'SameSite=Strict', 'Secure']);
      // A failed sign-in sets none.
      expect((await signIn(suite.server, staff.email, 'not the password')).headers['set-cookie']).toBeUndefined();
    });

    it('others’ failures lock out browsers without a device cookie, not the member’s browser that has one', async () => {
      const staff = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      await withBrowserAt(suite.server, member, async (browser) => {
        const device = deviceCookieIn(await browser.signIn(staff.email, staff.password))!;
        await lockOut(staff.email);
        // A browser of the member's own address, without the cookie: the account's bucket, full.
        const without = await browser.signIn(staff.email, staff.password);
        expectError(without, 429, 11);
        expect(Number(without.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        // With it: a bucket of its own.
        const withCookie = await browser.signIn(staff.email, staff.password, device);
        expect(withCookie.status, withCookie.text).toBe(201);
        expect(sessionTokenIn(withCookie)).toBeDefined();
        // Each sign-in issues a new device cookie, which works as well.
        const renewed = deviceCookieIn(withCookie)!;
        expect(renewed).not.toBe(device);
        expect((await browser.signIn(staff.email, staff.password, renewed)).status).toBe(201);
      });
    });

    it('a forged, altered, another account’s or expired device cookie gives no bucket of its own', async () => {
      const staff = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const bystander = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      await withBrowserAt(suite.server, member, async (browser) => {
        const device = deviceCookieIn(await browser.signIn(staff.email, staff.password))!;
        const othersDevice = deviceCookieIn(await browser.signIn(bystander.email, bystander.password))!;
        await lockOut(staff.email);
        const [version, nonce, expiry, mac] = device.split('.') as [string, string, string, string];
        const flipped = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
        // The same 32 bytes spelled otherwise: the last character's lowest bit is spare.
        const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const respelled = `${mac.slice(0, -1)}${BASE64URL[BASE64URL.indexOf(mac.at(-1)!) ^ 1]!}`;
        expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
        const refused = [
          `${version}.${nonce}.${expiry}.${flipped}`,
          `${version}.${nonce}.${expiry}.${respelled}`,
          `${version}.${nonce}.${Number(expiry) + 86_400}.${mac}`,
          `${version}.${'A'.repeat(22)}.${expiry}.${mac}`,
          othersDevice,
          'v1.forged',
        ];
        for (const cookie of refused) expectError(await browser.signIn(staff.email, staff.password, cookie), 429, 11);
        // The real one still opens its own bucket, until it expires.
        expect((await browser.signIn(staff.email, staff.password, device)).status).toBe(201);
        clock.advance(91 * 24 * 3600_000);
        await lockOut(staff.email);
        expectError(await browser.signIn(staff.email, staff.password, device), 429, 11);
      });
    });

    it('counts failures made with a device cookie in its own bucket only', async () => {
      const staff = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      await withBrowserAt(suite.server, member, async (browser) => {
        const device = deviceCookieIn(await browser.signIn(staff.email, staff.password))!;
        const answers = [];
        for (let attempt = 0; attempt < 4; attempt++) answers.push((await browser.signIn(staff.email, `a typo ${attempt}`, device)).status);
        expect(answers).toEqual([401, 401, 401, 429]);
        expectError(await browser.signIn(staff.email, staff.password, device), 429, 11);
        // The account's bucket took none of them.
        expect((await browser.signIn(staff.email, staff.password)).status).toBe(201);
      });
    });

    it('staff reset and staff disable empty the account’s bucket and revoke its device cookies', async () => {
      const staff = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      await withBrowserAt(suite.server, member, async (browser) => {
        const device = deviceCookieIn(await browser.signIn(staff.email, staff.password))!;
        await lockOut(staff.email);
        const reset = await suite.server.services.staff.reset(suite.tenant.storeId, staff.email);
        const fresh = await browser.signIn(staff.email, reset.initialPassword);
        expect(fresh.status, fresh.text).toBe(201);
        // The device cookie issued before the reset is of no use now.
        await lockOut(staff.email);
        expectError(await browser.signIn(staff.email, reset.initialPassword, device), 429, 11);
        await suite.server.services.staff.disable(suite.tenant.storeId, staff.email);
        // A disabled account's sign-in fails as any wrong one does, from an empty bucket.
        expectError(await browser.signIn(staff.email, reset.initialPassword), 401, 3);
      });
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

    it('applies to a browser with a device cookie too, and a right password gives its place back', async () => {
      const email = uniqueEmail('viewer');
      const { initialPassword } = await suite.server.services.staff.create(suite.tenant.storeId, { email, name: 'A viewer', role: 'viewer' });
      await withBrowserAt(suite.server, '127.0.0.2', async (browser) => {
        // Successful sign-ins take no place for good: ten in a row from a bucket of four.
        let device = '';
        for (let attempt = 0; attempt < 10; attempt++) {
          const response = await browser.signIn(email, initialPassword, device === '' ? undefined : device);
          expect(response.status, response.text).toBe(201);
          device = deviceCookieIn(response)!;
        }
        const answers = [];
        for (let attempt = 0; attempt < 5; attempt++) answers.push((await browser.signIn(uniqueEmail('guess'), 'a guessed password')).status);
        expect(answers).toEqual([401, 401, 401, 401, 429]);
        expectError(await browser.signIn(email, initialPassword, device), 429, 11);
      });
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
      expect(setCookieLine(response, 'pricebook_session')).toMatch(/; Max-Age=3600;/);
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
