import { Gauge, type Registry } from 'prom-client';
import type { StoreImportQueue } from '../modules/imports/import-repository.js';

/** Scrapes this close together share one reading of the queue, milliseconds. */
const READING_REUSE_MS = 1000;

/**
 * The CSV import queue per store, read when scraped (one grouped query over the queued and
 * running imports, a reading shared by scrapes within a second). Only stores with an import
 * queued or running appear, at most 1000 of them; when the database does not answer within
 * the time limit the gauges are left empty.
 */
export function registerImportQueueMetrics(registry: Registry, queues: () => Promise<StoreImportQueue[]>, options: { timeoutMs?: number } = {}): void {
  const timeoutMs = options.timeoutMs ?? 2000;
  let reading: { at: number; queues: Promise<StoreImportQueue[] | undefined> } | undefined;
  let running = false;
  const read = (): Promise<StoreImportQueue[] | undefined> => {
    const now = Date.now();
    if (reading === undefined || (now - reading.at >= READING_REUSE_MS && !running)) {
      running = true;
      const work = queues().finally(() => (running = false));
      reading = { at: now, queues: withTimeout(work, timeoutMs).catch(() => undefined) };
    }
    return reading.queues;
  };

  new Gauge({
    name: 'pricebook_import_queue_imports',
    help: 'CSV imports per store and state: queued (waiting for a process) or running; only stores with one, at most 1000',
    labelNames: ['store_id', 'state'],
    registers: [registry],
    async collect() {
      const current = await read();
      this.reset();
      for (const queue of current ?? []) {
        this.set({ store_id: String(queue.storeId), state: 'queued' }, queue.queued);
        this.set({ store_id: String(queue.storeId), state: 'running' }, queue.running);
      }
    },
  });
  new Gauge({
    name: 'pricebook_import_queue_bytes',
    help: "Bytes of the files of a store's queued and running CSV imports (what its cap PRICEBOOK_IMPORT_MAX_QUEUED_MIB limits); only stores with one",
    labelNames: ['store_id'],
    registers: [registry],
    async collect() {
      const current = await read();
      this.reset();
      for (const queue of current ?? []) this.set({ store_id: String(queue.storeId) }, queue.bytes);
    },
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
