/** Records one whole-list read keeps at most: 1000 pages of 100. */
const MAX_RECORDS = 100_000;

/**
 * The records of a whole list, read page after page by the client's `iterate`, in its order;
 * it stops at 100 000 (the page could not show more anyway).
 */
export async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const record of records) {
    all.push(record);
    if (all.length >= MAX_RECORDS) break;
  }
  return all;
}
