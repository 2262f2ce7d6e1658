import { type ChangeSetOperation, OPERATION_SCHEMAS, OPERATION_TYPES, type OperationType } from '../../contract/change-sets.js';
import type { FieldProblem } from '../../contract/errors.js';
import { refusedBy } from '../../modules/shared/errors.js';
import { createBodyAjv, toProblem } from './body-validator.js';

const ajv = createBodyAjv();
const validators = new Map(OPERATION_TYPES.map((type) => [type, ajv.compile(OPERATION_SCHEMAS[type])]));

function isOperationType(value: unknown): value is OperationType {
  return typeof value === 'string' && (OPERATION_TYPES as readonly string[]).includes(value);
}

/**
 * Each operation checked against its type's schema, as the body validator checks a body: the
 * problems with the item's `index` and its field. Items the body's schema already refused
 * (`shapeProblems`) are left out; the operations that pass come back at their places.
 */
export function operationShapes(
  items: readonly unknown[],
  shapeProblems: readonly FieldProblem[],
): { operations: Array<ChangeSetOperation | undefined>; problems: FieldProblem[] } {
  const refused = refusedBy(shapeProblems);
  const problems = [...shapeProblems];
  const operations = items.map((item, index): ChangeSetOperation | undefined => {
    if (refused(index, null) || refused(index, 'type')) return undefined;
    const type = (item as { type?: unknown }).type;
    if (!isOperationType(type)) {
      problems.push({ index, field: 'type', message: `must be one of: ${OPERATION_TYPES.join(', ')}` });
      return undefined;
    }
    const validate = validators.get(type)!;
    if (validate(item)) return item as ChangeSetOperation;
    for (const error of validate.errors ?? [])
      if (error.keyword !== 'const' || error.instancePath !== '/type') problems.push({ ...toProblem(error, false, item), index });
    return undefined;
  });
  return { operations, problems };
}
