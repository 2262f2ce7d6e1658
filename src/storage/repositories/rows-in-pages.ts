import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';

/** Rows of an explanation's read taken at once from PostgreSQL (`everyRowInPages`). */
export const ROWS_PER_PAGE = 2000;

/**
 * Every row of an explanation's read (all of a customer's records of a SKU, or a list's: ten
 * thousand and more), each id once. SQLite hands rows over in process, cheaply, in one read.
 * From PostgreSQL, a whole answer arrives at once and its parse holds the event loop in one
 * stretch (10 000 records took 61 ms on a slow machine): the rows come in pages of
 * ROWS_PER_PAGE in `id` order instead, each parsed on a turn of its own, from one snapshot
 * (a read-only repeatable-read transaction) so the pages agree with each other. Most
 * explanations have far fewer rows: the first read takes up to a page and one more, outside
 * any transaction, and only a fuller answer is read again in pages.
 */
export async function everyRowInPages<DB, TB extends keyof DB, R extends { id: number }>(
  db: Kysely<Tables>,
  engine: Engine,
  read: (db: Kysely<Tables>) => SelectQueryBuilder<DB, TB, R>,
  id: string,
): Promise<R[]> {
  if (engine.readsRowsInProcess) return read(db).execute();
  const few = await read(db)
    .orderBy(sql.ref(id))
    .limit(ROWS_PER_PAGE + 1)
    .execute();
  if (few.length <= ROWS_PER_PAGE) return few;
  const pages = async (connection: Kysely<Tables>): Promise<R[]> => {
    const rows: R[] = [];
    for (let after = 0; ;) {
      const page = await read(connection)
        .where(sql<boolean>`${sql.ref(id)} > ${after}`)
        .orderBy(sql.ref(id))
        .limit(ROWS_PER_PAGE)
        .execute();
      for (const row of page) rows.push(row);
      if (page.length < ROWS_PER_PAGE) return rows;
      after = page[page.length - 1]!.id;
    }
  };
  if (db.isTransaction) return pages(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(pages);
}
