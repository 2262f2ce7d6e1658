import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { signIn, statusCounts, uniqueEmail, withBrowserAt } from '../support/staff.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { besideNeighbour, describeNeighbour, expectGoodNeighbour } from './support/noisy-neighbour.js';
import { reportLine } from './support/report.js';

/**
 * Staff sign-ins at their bound beside another store (docs/staff.md, "Throttling";
 * docs/reliability.md, "Noisy neighbours"): scrypt at its default cost (32 MiB and about 0.1 s
 * of a core a hash, in libuv's thread pool), sign-ins from one address, 32 at a time (a
 * browser's connections), each against another e-mail so that no account's bucket stops them
 * first, and the address's bucket stops them only after 30 (100 by default: the count changes
 * how long the checks run, not what they cost the others). The checks are kept busy from start
 * to end, and at most all processors but one check passwords at once (one on two cores), the
 * others waiting their turn; the bucket refuses the rest before any scrypt. Store B's GET p99
 * stays under 100 ms, the loop's own work never takes 50 ms in one stretch, and resident memory
 * stays within its budget.
 */
const ADDRESS_BUCKET = 30;
const SIGN_INS = 40;
const CONNECTIONS = 32;
/** The attacker's address: B reads from 127.0.0.1. */
const ATTACKER = '127.0.0.3';

describe.each(await enginesUnderTest())('staff sign-ins beside another store on %s', (engine) => {
  let server: TestServer;
  let storeA: Tenant;
  let storeB: Tenant;

  beforeAll(async () => {
    server = await startTestServer(engine, { PRICEBOOK_PASSWORD_COST: '15', PRICEBOOK_AUTH_FAILURE_BUCKET: String(ADDRESS_BUCKET) });
    storeA = await server.createTenant();
    storeB = await server.createTenant();
  });
  afterAll(() => server.close());

  it(`checks no more of ${SIGN_INS} sign-ins' passwords from one address than its bucket lets through, without holding up another store`, async () => {
    const email = uniqueEmail('member');
    const { initialPassword } = await server.services.staff.create(storeA.storeId, { email, name: 'A member', role: 'viewer' });
    await withBrowserAt(server, ATTACKER, async (attacker) => {
      await attacker.connect(CONNECTIONS);
      const { result: answers, figures } = await besideNeighbour(server, storeB, () =>
        Promise.all(Array.from({ length: SIGN_INS }, (_, index) => attacker.signIn(uniqueEmail('guess'), `a guessed password ${index}`))),
      );
      const counts = statusCounts(answers);
      reportLine(
        describeNeighbour(
          `noisy-sign-in/burst/${engine}`,
          `${SIGN_INS} sign-ins from one address, ${CONNECTIONS} at a time (${JSON.stringify(counts)})`,
          figures,
        ),
      );
      // The bucket's places, and one more a second it took (the address bucket's default leak).
      const checked = counts['401'] ?? 0;
      expect(checked).toBeGreaterThanOrEqual(ADDRESS_BUCKET);
      expect(checked).toBeLessThanOrEqual(ADDRESS_BUCKET + Math.ceil(figures.seconds) + 1);
      expect(checked + (counts['429'] ?? 0)).toBe(SIGN_INS);
      expectGoodNeighbour(figures);
    });
    // The member, from another address, signs in.
    expect((await signIn(server, email, initialPassword)).status).toBe(201);
  });
});
