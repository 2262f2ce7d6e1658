import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_COST, hashPassword, verifyPassword } from './password-hash.js';

describe('staff password hashes', () => {
  it('are scrypt at N = 2^15, r = 8, p = 1 by default, with a 32-byte salt and a 64-byte key, and verify', async () => {
    expect(DEFAULT_PASSWORD_COST).toBe(15);
    const stored = await hashPassword('correct horse battery');
    const [, parameters, salt, key] = stored.split('$');
    expect(parameters).toBe('ln=15,r=8,p=1');
    expect([Buffer.from(salt!, 'base64').length, Buffer.from(key!, 'base64').length]).toEqual([32, 64]);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('keep the cost they were made with: one made at another cost still verifies', async () => {
    const cheap = await hashPassword('correct horse battery', 10);
    expect(cheap).toMatch(/^scrypt\$ln=10,r=8,p=1\$/);
    expect(await verifyPassword('correct horse battery', cheap)).toBe(true);
    expect(await verifyPassword('correct horse battery', 'scrypt$ln=10,r=8,p=1$bad')).toBe(false);
  });
});
