import { UniqueViolation } from '../modules/shared/errors.js';

/** Which rule each unique index enforces, by a fragment of its name or columns. */
const TARGETS: ReadonlyArray<readonly [string, UniqueViolation['target']]> = [
  ['skus', 'sku'],
  ['email', 'email'],
  ['idempotency', 'idempotency_key'],
];

/**
 * Turns a driver's unique-constraint error into UniqueViolation; anything else is rethrown as
 * it is. PostgreSQL names the constraint; SQLite names the table and columns in its message.
 */
export async function mapUniqueViolation<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw toUniqueViolation(error) ?? error;
  }
}

export function toUniqueViolation(error: unknown): UniqueViolation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  const isPostgres = code === '23505';
  const isSqlite = code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!isPostgres && !isSqlite) return undefined;
  const description = String(isPostgres ? constraint : message);
  const target = TARGETS.find(([fragment]) => description.includes(fragment))?.[1] ?? 'unknown';
  return new UniqueViolation(target);
}
