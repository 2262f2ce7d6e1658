import { Type, type Static } from '@sinclair/typebox';
import { EmbedQuery, FieldsQuery, Id, NoControlCharacters, Nullable, PageQuery, PartialStrictObject, StrictObject, Timestamp } from './common.js';

export const CATEGORY_EMBEDS = ['parents'] as const;

export const CategoryInput = StrictObject(
  {
    title: NoControlCharacters(Type.String({ minLength: 1, maxLength: 255 })),
    parentId: Type.Optional(Nullable({ ...Id, description: 'null (the default): a root category' })),
  },
  { title: 'CategoryInput', examples: [{ title: 'Apparel' }] },
);
export type CategoryInput = Static<typeof CategoryInput>;

export const CategoryUpdate = PartialStrictObject(CategoryInput, { title: 'CategoryUpdate' });
export type CategoryUpdate = Static<typeof CategoryUpdate>;

const CategoryProperties = {
  id: Id,
  title: Type.String(),
  parentId: Nullable(Id),
  createdAt: Timestamp,
};

/** An ancestor in `parents`, without parents of its own. */
export const ParentCategory = Type.Object(CategoryProperties, { additionalProperties: false });
export type ParentCategory = Static<typeof ParentCategory>;

export const Category = Type.Object(
  {
    ...CategoryProperties,
    parents: Type.Optional(Type.Array(ParentCategory, { description: 'With embed=parents: the ancestors, root first' })),
  },
  { title: 'Category', $id: 'Category', additionalProperties: false },
);
export type Category = Static<typeof Category>;

export const CategoryListQuery = Type.Object({ ...PageQuery, embed: EmbedQuery(CATEGORY_EMBEDS) }, { title: 'CategoryListQuery', additionalProperties: false });

export const CategoryGetQuery = Type.Object({ ...FieldsQuery, embed: EmbedQuery(CATEGORY_EMBEDS) }, { title: 'CategoryGetQuery', additionalProperties: false });
