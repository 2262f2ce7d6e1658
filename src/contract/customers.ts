import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, PageQuery, PartialStrictObject, StrictObject, Timestamp } from './common.js';

const Name = Type.String({ minLength: 1, maxLength: 255 });

export const CustomerInput = StrictObject({
  email: Type.String({ format: 'email', maxLength: 254 }),
  firstName: Type.Optional(Nullable(Name)),
  lastName: Type.Optional(Nullable(Name)),
  companyName: Type.Optional(Nullable(Name)),
  trade: Type.Optional(Type.Boolean({ default: false, description: 'Trade customers get their trade prices' })),
  active: Type.Optional(Type.Boolean({ default: true })),
});
export type CustomerInput = Static<typeof CustomerInput>;

export const CustomerUpdate = PartialStrictObject(CustomerInput);
export type CustomerUpdate = Static<typeof CustomerUpdate>;

export const Customer = Type.Object(
  {
    id: Id,
    email: Type.String(),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    companyName: Nullable(Type.String()),
    trade: Type.Boolean(),
    active: Type.Boolean(),
    createdAt: Timestamp,
  },
  { $id: 'Customer', additionalProperties: false },
);
export type Customer = Static<typeof Customer>;

export const CustomerListQuery = Type.Object(
  {
    ...PageQuery,
    email: Type.Optional(Type.String({ description: 'Exact email (case-insensitive)' })),
    trade: Type.Optional(Type.Boolean({ description: 'Only trade (true) or regular (false) customers' })),
  },
  { additionalProperties: false },
);
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerCountQuery = Type.Object(
  { email: CustomerListQuery.properties.email, trade: CustomerListQuery.properties.trade },
  { additionalProperties: false },
);
