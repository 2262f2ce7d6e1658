import { Type, type Static } from '@sinclair/typebox';

/** The closed list of failure kinds and their numeric codes: a file of its own, which the admin page loads too. */
export { ERROR_CODES, type ErrorKind } from './error-codes.js';

export const FieldProblemSchema = Type.Object(
  {
    index: Type.Optional(Type.Integer({ minimum: 0, description: 'Position in the bulk request array' })),
    field: Type.Union([Type.String(), Type.Null()], { description: 'Field name; null for the item or body as a whole' }),
    message: Type.String(),
    value: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
        description:
          'The rejected value as the request sent it (a string clipped to 40 characters and an ellipsis); absent when the field is missing, when it is not one string, number, boolean or null, and for a field whose name suggests a secret (a password, a token, a key)',
      }),
    ),
  },
  { title: 'FieldProblem', additionalProperties: false },
);
/**
 * One problem of a 422: `index` is the position in a bulk array, `field` null for a whole item,
 * `value` what the request sent there, when it may be echoed (`rejectedValue`, src/modules/shared/rejected-value.ts).
 */
export type FieldProblem = Static<typeof FieldProblemSchema>;

export const ErrorBodySchema = Type.Object(
  {
    code: Type.Integer({ description: 'Numeric error code (see the code table)' }),
    message: Type.String(),
    errors: Type.Optional(Type.Array(FieldProblemSchema, { maxItems: 1000, description: 'Every problem found (422 only)' })),
  },
  { title: 'ErrorBody', $id: 'Error', additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;
