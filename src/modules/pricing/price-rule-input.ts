import type { FieldProblem } from '../../contract/errors.js';
import { canonicalTimestamp, TIMESTAMP_RULE } from '../shared/timestamps.js';

/** The quantity break and validity window of a trade price or a list entry, as stored. */
export interface RuleFields {
  minQuantity: number;
  /** Canonical timestamps (`modules/shared/timestamps.ts`); null: no bound. */
  validFrom: string | null;
  validUntil: string | null;
}

/** What a request item may carry of them (the schema has checked the types). */
export interface RuleFieldsInput {
  minQuantity?: number;
  validFrom?: string | null;
  validUntil?: string | null;
}

/**
 * An item's rule fields with their defaults (from 1 unit, always) and timestamps made
 * canonical, or the problems found: a timestamp that names no moment, or a window that ends
 * before it starts. Only the fields `passed` (by the schema; all, by default) are looked at.
 */
export function ruleFieldsOf(
  item: RuleFieldsInput,
  index: number | undefined,
  passed: (field: keyof RuleFieldsInput) => boolean = () => true,
): { fields: RuleFields; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const bound = (field: 'validFrom' | 'validUntil'): string | null => {
    const text = item[field];
    if (text === undefined || text === null || !passed(field)) return null;
    const canonical = canonicalTimestamp(text);
    if (canonical === undefined) problems.push(at(index, { field, message: TIMESTAMP_RULE }));
    return canonical ?? null;
  };
  const validFrom = bound('validFrom');
  const validUntil = bound('validUntil');
  if (validFrom !== null && validUntil !== null && validFrom >= validUntil) {
    problems.push(at(index, { field: 'validUntil', message: `must be after validFrom (${validFrom})` }));
  }
  return { fields: { minQuantity: item.minQuantity ?? 1, validFrom, validUntil }, problems };
}

function at(index: number | undefined, problem: FieldProblem): FieldProblem {
  return index === undefined ? problem : { index, ...problem };
}
