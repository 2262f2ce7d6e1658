import type { Generated } from 'kysely';

/* CSV imports: the rows of the imports, their files' slices, their staged prices and a dry run's changes. */

/** A CSV import of trade prices. */
export interface ImportsTable {
  id: Generated<number>;
  store_id: number;
  /**
   * `queued`, `running`, `succeeded` or `failed`; never answered: `uploading` while its file
   * arrives, `discarded` when the upload was refused or abandoned (deleted with its slices).
   */
  status: string;
  /** `add` or `replace`. */
  mode: string;
  dry_run: number;
  /** The change set the rows go into as operations (migration 020); null: applied to the book. */
  change_set_id: Generated<number | null>;
  /** `long` or `matrix`, once the header is read. */
  format: string | null;
  /** Data rows of the file, once counted. */
  rows: number | null;
  processed: Generated<number>;
  /** JSON array of at most 1000 `{row, field, message}`. */
  errors: Generated<string>;
  error_count: Generated<number>;
  /** JSON `{created, deleted, unchanged}`, once succeeded. */
  result: string | null;
  created_at: string;
  finished_at: string | null;
  /** Milliseconds since the epoch; while in the future, one process owns the running import. */
  lease_until: number | null;
  lease_token: string | null;
  attempts: Generated<number>;
  /** Bytes of the file (while it is stored, they count against the store's queued bytes). */
  file_bytes: Generated<number>;
  /** Milliseconds since the epoch of the last claim: claims go to the store served least recently. */
  claimed_at: number | null;
  /** 1 while slices or staged rows of the ended (or discarded) import are still to be deleted. */
  cleanup: Generated<number>;
  /** Who uploaded it (migration 017): its apply's history entries name them. Null on imports uploaded before. */
  actor_type: string | null;
  actor_id: number | null;
  actor_name: string | null;
  /** The upload's request id, for the same entries. */
  request_id: string | null;
  /** The file's name as the uploader gave it (migration 028); null when none was. */
  file_name: string | null;
}

/** An import's file, in slices of 256 KiB, kept until the import ends. */
export interface ImportFileChunksTable {
  import_id: number;
  store_id: number;
  /** Order of the slice in the file, from 0. */
  seq: number;
  data: Buffer;
}

/** A price an import checked, staged until the import applies them all at once. */
export interface ImportRowsTable {
  import_id: number;
  store_id: number;
  /** The order of the prices in the file. */
  position: number;
  customer_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths. */
  price: number;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
}

/** A dry run's change of one price (migration 029). */
export interface ImportChangesTable {
  import_id: number;
  store_id: number;
  seq: number;
  kind: string;
  customer_id: number;
  sku: string;
  min_quantity: number;
  valid_from: string | null;
  valid_until: string | null;
  /** Ten-thousandths. */
  price_before: number | null;
  price_after: number | null;
  trade_price_id: number | null;
}

/** Imports: this area's tables, by name (composed into `Tables`). */
export interface ImportTables {
  imports: ImportsTable;
  import_file_chunks: ImportFileChunksTable;
  import_rows: ImportRowsTable;
  import_changes: ImportChangesTable;
}
