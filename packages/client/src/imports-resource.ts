import type { Caller } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type { CountResult, FieldsOptions, Import, ImportChanges, ImportChangesQuery, ImportMode, PageOptions } from './types.js';

export interface CreateImportOptions {
  /** `add` (default): every row becomes a trade price. `replace`: each customer of the file gets exactly its rows. */
  mode?: ImportMode;
  /** Check the file and count what would change; change nothing. Default false. */
  dryRun?: boolean;
  /** An open change set of the store: the rows become its operations instead of changing the book (docs/change-sets.md). */
  changeSet?: number;
  /** The file's name, kept with the import (`fileName`) to tell it apart. */
  fileName?: string;
  idempotencyKey?: string;
}

export interface WaitOptions {
  /** Called with the import after every poll, the last (ended) one included. */
  onProgress?: (current: Import) => void;
  /** Milliseconds between polls; default 500 (each poll is a request, paced like any other). */
  intervalMs?: number;
  /** Milliseconds to wait at most before throwing (the import goes on); default 3 600 000. */
  timeoutMs?: number;
}

/** `/v1/imports`: CSV files of trade prices, worked in the background (docs/imports.md). */
export class ImportsResource {
  constructor(private readonly api: Caller) {}

  list(query: PageOptions = {}): Promise<Import[]> {
    return this.api.call('imports.list', { query });
  }
  iterate(query: IterateQuery<PageOptions> = {}): AsyncGenerator<Import, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(): Promise<number> {
    return (await this.api.call<CountResult>('imports.count')).count;
  }
  get(id: number, query: FieldsOptions = {}): Promise<Import> {
    return this.api.call('imports.get', { params: { id }, query });
  }
  /** What a dry run that succeeded would change, a page at a time (`count` 1–100, default 50; `offset`): each price created, deleted or changed, old → new. */
  changes(id: number, query: ImportChangesQuery = {}): Promise<ImportChanges> {
    return this.api.call('imports.changes', { params: { id }, query });
  }

  /** Uploads a CSV file (up to 50 MiB; text, or its bytes: a Buffer, a Uint8Array): answered at once with the queued import. */
  create(csv: string | Uint8Array, options: CreateImportOptions = {}): Promise<Import> {
    const { mode = 'add', dryRun = false, changeSet, fileName, idempotencyKey } = options;
    return this.api.call('imports.create', {
      csv,
      query: { mode, dryRun, ...(changeSet !== undefined && { changeSet }), ...(fileName !== undefined && { fileName }) },
      ...(idempotencyKey !== undefined && { idempotencyKey }),
    });
  }

  /** Polls the import until it has `succeeded` or `failed`, and answers it as it ended. */
  async wait(id: number, options: WaitOptions = {}): Promise<Import> {
    const { onProgress, intervalMs = 500, timeoutMs = 3_600_000 } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await this.get(id);
      onProgress?.(current);
      if (current.status === 'succeeded' || current.status === 'failed') return current;
      if (Date.now() + intervalMs > deadline)
        throw new Error(`import ${id} is still ${current.status} after ${timeoutMs} ms (it goes on; poll it again later)`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
