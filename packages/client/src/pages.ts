/** Records asked for per page when iterating: the API's largest page. */
export const PAGE_SIZE = 100;

/**
 * Every record of a list, page after page of `offset` (ordered by id ascending, as every list
 * is); stops at the first page shorter than asked for. Records created or deleted meanwhile may
 * shift the pages: iterate a list that is not changing under it.
 */
export async function* offsetPages<T>(fetchPage: (page: { count: number; offset: number }) => Promise<T[]>): AsyncGenerator<T, void, undefined> {
  for (let offset = 0; ;) {
    const page = await fetchPage({ count: PAGE_SIZE, offset });
    yield* page;
    if (page.length < PAGE_SIZE) return;
    offset += page.length;
  }
}

/** Every record of a list queried by `query`, without its own `count` and `offset`. */
export type IterateQuery<Q> = Omit<Q, 'count' | 'offset'>;
