import type { Services } from '../app/services.js';
import { type ChainReport, ChainVerifier } from '../modules/history/chain-verifier.js';
import { ProgressReporter, type ProgressStream } from './prices/progress-reporter.js';

/** Stores read per query while walking all of them. */
const STORES_PAGE = 1000;
/** A walk shorter than this shows no progress. */
const QUIET_MS = 2000;

export interface VerifyOutput {
  /** One JSON line per store. */
  stdout: { write(text: string): boolean };
  /** Progress of a long walk. */
  stderr: ProgressStream;
}

/** A chain broke: the command exits 1 with this message, after every store's line. */
export class BrokenHistory extends Error {}

/**
 * `pricebook history verify [--store ID]`: walks each store's history chain (or one store's)
 * and prints a line per store, `{"storeId","entries","head","checkpoint","ok"}`, with `broken`
 * (`seq`, `problem`: edited, removed or inserted, `detail`) when it does not hold. Throws
 * `BrokenHistory` naming the first broken store and entry, once every store is walked.
 */
export async function verifyHistory(services: Services, key: string | undefined, storeId: number | undefined, output: VerifyOutput): Promise<void> {
  let progress: ProgressReporter | undefined;
  const verifier = new ChainVerifier(services.uow, {
    key,
    onProgress: (_store, checked, total) => progress?.update('checking entries', checked, total),
  });
  const reports: ChainReport[] = [];
  const verifyOne = async (id: number) => {
    progress = new ProgressReporter(output.stderr, `history verify: store ${id}`, Date.now, QUIET_MS);
    try {
      const report = await verifier.verify(id);
      progress.finish();
      reports.push(report);
      output.stdout.write(`${JSON.stringify(lineOf(report))}\n`);
    } finally {
      progress.stop();
    }
  };
  if (storeId !== undefined) {
    if ((await services.uow.repos.stores.find(storeId)) === undefined) throw new Error(`no store ${storeId}`);
    await verifyOne(storeId);
  } else {
    for (let afterId = 0; ; ) {
      const stores = await services.credentials.stores(afterId, STORES_PAGE);
      for (const store of stores) await verifyOne(store.id);
      if (stores.length < STORES_PAGE) break;
      afterId = stores.at(-1)!.id;
    }
  }
  const first = reports.find((report) => report.broken !== undefined);
  if (first?.broken !== undefined) {
    const { seq, problem, detail } = first.broken;
    const others = reports.filter((report) => report.broken !== undefined).length - 1;
    throw new BrokenHistory(`the price history of store ${first.storeId} is broken at entry ${seq} (${problem}): ${detail}${others > 0 ? `; ${others} other store(s) too` : ''}`);
  }
}

function lineOf(report: ChainReport): object {
  return {
    storeId: report.storeId,
    entries: report.entries,
    head: report.head,
    checkpoint: report.checkpoint,
    ok: report.broken === undefined,
    ...(report.broken === undefined ? {} : { broken: report.broken }),
  };
}
