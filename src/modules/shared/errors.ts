import type { ErrorKind, FieldProblem } from '../../contract/errors.js';

/** A 422 lists at most this many problems. */
export const MAX_REPORTED_PROBLEMS = 1000;

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly problems?: readonly FieldProblem[],
    /** Seconds to wait before trying again (`Retry-After`), for a refusal that passes. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}

/** The record, or a 404 naming what was looked for. */
export function found<T>(record: T | undefined, what: string): T {
  if (record === undefined) throw notFound(what);
  return record;
}

/**
 * A 422 with its problems in report order: those of the body as a whole first, then by item
 * (`index`), each item's in the order found. `itemCount`: the body is an array of items.
 */
export function validationFailed(problems: readonly FieldProblem[], itemCount?: number): AppError {
  const listed = inReportOrder(problems).slice(0, MAX_REPORTED_PROBLEMS);
  let message: string;
  if (itemCount !== undefined) {
    const invalidItems = new Set(problems.map((problem) => problem.index)).size;
    message = `Validation failed: ${invalidItems} of ${itemCount} items are invalid`;
  } else {
    message = `Validation failed: ${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  }
  return new AppError('validation_failed', message, listed);
}

/** Problems of the body as a whole first, then by item; a stable sort keeps each item's in the order found. */
function inReportOrder(problems: readonly FieldProblem[]): FieldProblem[] {
  return [...problems].sort((a, b) => (a.index ?? -1) - (b.index ?? -1));
}

/**
 * Whether the schema refused a part of a body with an array of items (`lines`, `prices`):
 * `(index, field)` is refused by a problem of that field or of the whole item;
 * `(undefined, field)` by a problem of that body field; `(undefined, null)` means the body as
 * a whole.
 */
export function refusedBy(problems: readonly FieldProblem[]): (index: number | undefined, field: string | null) => boolean {
  const keys = new Set(problems.map((problem) => `${problem.index ?? ''}:${problem.field ?? ''}`));
  return (index, field) => keys.has(`${index ?? ''}:${field ?? ''}`) || (index !== undefined && keys.has(`${index}:`));
}

/**
 * One item's write in a bulk create: a 422 it meets (a SKU or an e-mail address a concurrent
 * writer took after the checks) is reported with the item's `index`, as the checks would have.
 */
export async function asBulkItem<T>(index: number, itemCount: number, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof AppError && error.kind === 'validation_failed' && error.problems !== undefined) {
      throw validationFailed(
        error.problems.map((problem) => ({ ...problem, index })),
        itemCount,
      );
    }
    throw error;
  }
}

/** A single-field 422 for single-object bodies. */
export function invalidField(field: string | null, message: string): AppError {
  return validationFailed([{ field, message }]);
}

/**
 * Thrown by storage when a unique index refuses a write; services turn it into the domain's
 * own error. `target` names the rule, not the index.
 */
export class UniqueViolation extends Error {
  constructor(readonly target: 'sku' | 'email' | 'idempotency_key' | 'unknown') {
    super(`unique constraint on ${target}`);
    this.name = 'UniqueViolation';
  }
}
