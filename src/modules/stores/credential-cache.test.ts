import { describe, expect, it } from 'vitest';
import { CredentialCache } from './credential-cache.js';
import type { StoredApiKey } from './store-repository.js';

const TRUSTED_MS = 1000;

function credential(revokedAt: string | null = null): StoredApiKey {
  return { id: 1, storeId: 1, key: 'pk_a', secretHash: 'h', scopes: [], createdAt: '2026-01-01T00:00:00.000Z', revokedAt, name: null };
}

/** A cache on a clock the test moves, over a "database" whose reads the test answers. */
function harness() {
  let time = 0;
  const reads: Array<{ key: string; answer: (stored: StoredApiKey | undefined) => void }> = [];
  const cache = new CredentialCache(
    (key) => new Promise((resolve) => reads.push({ key, answer: resolve })),
    () => time,
    TRUSTED_MS,
  );
  return {
    cache,
    reads,
    advance: (ms: number) => (time += ms),
    /** Lets pending promise callbacks run. */
    settle: () => new Promise((resolve) => setImmediate(resolve)),
  };
}

describe('CredentialCache', () => {
  it('reads a credential once per trust period, and again after it', async () => {
    const { cache, reads, advance, settle } = harness();
    const first = cache.find('pk_a');
    reads[0]!.answer(credential());
    expect(await first).toEqual(credential());
    advance(TRUSTED_MS - 1);
    expect(await cache.find('pk_a')).toEqual(credential());
    expect(reads).toHaveLength(1);

    advance(1);
    const later = cache.find('pk_a');
    await settle();
    expect(reads).toHaveLength(2);
    reads[1]!.answer(credential('2026-01-02T00:00:00.000Z'));
    expect((await later)?.revokedAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it('answers at once, with no promise, from a reading that has answered and is still trusted; a read under way or a stale reading answers through a promise', async () => {
    const { cache, reads, advance } = harness();
    const first = cache.find('pk_a');
    expect(first).toBeInstanceOf(Promise);
    // Joined while the read is under way: a promise too.
    expect(cache.find('pk_a')).toBeInstanceOf(Promise);
    reads[0]!.answer(credential());
    await first;
    advance(TRUSTED_MS - 1);
    expect(cache.find('pk_a')).toEqual(credential());
    advance(1);
    expect(cache.find('pk_a')).toBeInstanceOf(Promise);
    expect(reads).toHaveLength(2);
    // A revocation is final: once read, it answers at once for ever.
    reads[1]!.answer(credential('2026-01-02T00:00:00.000Z'));
    await Promise.resolve();
    advance(10 * TRUSTED_MS);
    expect(cache.find('pk_a')).toEqual(credential('2026-01-02T00:00:00.000Z'));
    expect(reads).toHaveLength(2);
  });

  it('does not trust a shared read that began before the request and outlasted the trust period', async () => {
    const { cache, reads, advance, settle } = harness();
    const first = cache.find('pk_a');
    advance(10);
    // Arrives while the first read is under way, and joins it.
    const joined = cache.find('pk_a');
    await settle();
    expect(reads).toHaveLength(1);
    advance(TRUSTED_MS);
    reads[0]!.answer(credential());
    expect(await first).toEqual(credential());
    await settle();
    // The joined request asked again rather than use an answer that may predate a revocation.
    expect(reads).toHaveLength(2);
    reads[1]!.answer(credential('2026-01-02T00:00:00.000Z'));
    expect((await joined)?.revokedAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it('keeps a revoked credential for good and an unknown key not at all', async () => {
    const { cache, reads, advance, settle } = harness();
    const revoked = cache.find('pk_a');
    reads[0]!.answer(credential('2026-01-02T00:00:00.000Z'));
    await revoked;
    const unknown = cache.find('pk_b');
    reads[1]!.answer(undefined);
    expect(await unknown).toBeUndefined();

    advance(TRUSTED_MS * 10);
    expect((await cache.find('pk_a'))?.revokedAt).toBe('2026-01-02T00:00:00.000Z');
    expect(reads).toHaveLength(2);
    void cache.find('pk_b');
    await settle();
    expect(reads.map((read) => read.key)).toEqual(['pk_a', 'pk_b', 'pk_b']);
  });

  it('forgets a failed read, so the next request reads again', async () => {
    let attempts = 0;
    const cache = new CredentialCache(
      () => (++attempts === 1 ? Promise.reject(new Error('down')) : Promise.resolve(credential())),
      () => 0,
      TRUSTED_MS,
    );
    await expect(cache.find('pk_a')).rejects.toThrow('down');
    expect(await cache.find('pk_a')).toEqual(credential());
    expect(attempts).toBe(2);
  });
});
