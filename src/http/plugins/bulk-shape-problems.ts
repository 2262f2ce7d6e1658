import { AppError, MAX_REPORTED_PROBLEMS } from '../../modules/shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';

/**
 * The schema's problems with a bulk body's items, to be reported with those the store finds.
 * A body wrong as a whole (not an array, empty, too long) is answered at once as invalid JSON
 * structure, and so is a report already cut at its limit: it no longer names every refused
 * item, and the unnamed ones must not reach the store checks, which trust their shape.
 */
export function bulkShapeProblems(shapeError: Error | undefined): FieldProblem[] {
  if (shapeError === undefined) return [];
  const shapeProblems = shapeError instanceof AppError ? (shapeError.problems ?? []) : [];
  if (!(shapeError instanceof AppError) || shapeProblems.some((problem) => problem.index === undefined)) {
    throw shapeError instanceof AppError
      ? new AppError(
          'validation_failed',
          `Invalid JSON structure: ${describeRoot(shapeProblems)}`,
          shapeProblems.filter((problem) => problem.index === undefined),
        )
      : shapeError;
  }
  if (shapeProblems.length >= MAX_REPORTED_PROBLEMS) throw shapeError;
  return [...shapeProblems];
}

function describeRoot(problems: readonly { index?: number; message: string }[]): string {
  const root = problems.find((problem) => problem.index === undefined);
  return root === undefined ? 'the body must be an array of 1 to 1000 objects' : `the body ${root.message}`;
}

/**
 * The schema's problems of an object body with an array of items (an order's or a quote's
 * `lines`, a replace's `prices`), an item's with its position as `index` and its own field
 * (`lines[2].sku` becomes index 2, field `sku`). A body that is not an object, or a report
 * already full, is answered at once: there is nothing more to check.
 */
export function itemShapeProblems(error: Error | undefined, items: 'lines' | 'prices'): FieldProblem[] {
  if (error === undefined) return [];
  if (!(error instanceof AppError) || error.problems === undefined) throw error;
  if (error.problems.length >= MAX_REPORTED_PROBLEMS || error.problems.some((problem) => problem.field === null)) throw error;
  const itemPath = new RegExp(`^${items}\\[(\\d+)\\](?:\\.(.+))?$`);
  return error.problems.map((problem) => {
    const item = itemPath.exec(problem.field ?? '');
    return item === null ? problem : { ...problem, index: Number(item[1]), field: item[2] ?? null };
  });
}
