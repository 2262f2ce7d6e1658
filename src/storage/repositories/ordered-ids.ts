/**
 * Assignment rows (an owner's id, an assigned id), read in owner and position order, as each
 * owner's ids in that order: a customer's or a group's price lists.
 */
export function idsByOwner(rows: ReadonlyArray<readonly [owner: number | bigint, id: number | bigint]>): Map<number, number[]> {
  const byOwner = new Map<number, number[]>();
  for (const [owner, id] of rows) {
    const ids = byOwner.get(Number(owner));
    if (ids === undefined) byOwner.set(Number(owner), [Number(id)]);
    else ids.push(Number(id));
  }
  return byOwner;
}
