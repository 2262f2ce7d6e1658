/** The shapes of the API's JSON bodies, as the tests read them. */

/** A `createdAt`: UTC, to the millisecond. */
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A 422 answer: every problem, with the index of the item it is about in a list body. */
export interface ProblemBody {
  code: number;
  message: string;
  errors: Array<{ index?: number; field: string | null; message: string }>;
}

export interface ProductBody {
  id: number;
  title: string;
  sku: string | null;
  price: number;
  active: boolean;
  categoryIds: number[];
  variations: { id: number; sku: string; price: number | null; stock: number | null }[];
  createdAt: string;
}
