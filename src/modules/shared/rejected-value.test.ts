import { describe, expect, it } from 'vitest';
import { rejectedValue } from './rejected-value.js';

describe('rejectedValue', () => {
  it('quotes one string (clipped), number, boolean or null as sent', () => {
    expect(rejectedValue('price', 1.1400000000000001)).toBe(1.1400000000000001);
    expect(rejectedValue('customerId', '12')).toBe('12');
    expect(rejectedValue('variations[2].sku', 'X'.repeat(41))).toBe(`${'X'.repeat(40)}…`);
    expect(rejectedValue('trade', false)).toBe(false);
    expect(rejectedValue(null, null)).toBeNull();
  });

  it('quotes nothing for a missing field, an object or an array', () => {
    expect(rejectedValue('price', undefined)).toBeUndefined();
    expect(rejectedValue('price', { amount: 5 })).toBeUndefined();
    expect(rejectedValue('categoryIds', [1, 2])).toBeUndefined();
  });

  it.each(['password', 'currentPassword', 'new_password', 'secret', 'webhookSecret', 'token', 'api-key', 'apiKey', 'variations[0].key', 'Authorization'])(
    'never quotes %s, a name with a secret in it',
    (field) => {
      expect(rejectedValue(field, 'hunter2 hunter2')).toBeUndefined();
      expect(rejectedValue(field, 123456789012)).toBeUndefined();
    },
  );

  it('reads names by their words: a word that only contains a secret’s letters is no secret', () => {
    expect(rejectedValue('monkey', 'x')).toBe('x');
    expect(rejectedValue('tokenizer', 'x')).toBe('x');
    expect(rejectedValue('passage', 'x')).toBe('x');
  });
});
