import type { Services } from '../app/services.js';
import { type ChainReport, ChainVerifier } from '../modules/history/chain-verifier.js';
import type { ChainHead } from '../modules/history/history-repository.js';
import { ProgressReporter, type ProgressStream } from './prices/progress-reporter.js';
import { UsageError } from './usage-error.js';

/** Stores read per query while walking all of them. */
const STORES_PAGE = 1000;
/** A walk shorter than this shows no progress. */
const QUIET_MS = 2000;
/** Lines an anchors file may hold, at most. */
const MAX_ANCHOR_LINES = 1_000_000;

export interface VerifyOutput {
  /** One JSON line per store. */
  stdout: { write(text: string): boolean };
  /** Progress of a long walk. */
  stderr: ProgressStream;
  /** Milliseconds a walk goes on before its progress shows. Default 2000. */
  quietMs?: number;
}

export interface VerifyOptions {
  /** The history key, for stores cut by retention. */
  key: string | undefined;
  /** Verify this store only. */
  storeId?: number;
  /** Heads recorded elsewhere, by store, that each chain must still pass through. */
  anchors?: ReadonlyMap<number, readonly ChainHead[]>;
}

/** A chain broke: the command exits 1 with this message, after every store's line. */
export class BrokenHistory extends Error {}

/**
 * `pricebook history verify [--store ID] [--expect-head SEQ:HASH] [--anchors FILE]`: checks each
 * store's history (or one store's) and prints a line per store,
 * `{"storeId","entries","records","head","checkpoint","anchors","ok"}`, with `broken` (every
 * break found, the first 100: `seq`, `problem` edited, removed or inserted, `detail`) and
 * `brokenCount` when it does not hold. Throws `BrokenHistory` naming the first broken store
 * and its first break, once every store is checked.
 */
export async function verifyHistory(services: Services, options: VerifyOptions, output: VerifyOutput): Promise<void> {
  let progress: ProgressReporter | undefined;
  const verifier = new ChainVerifier(services.uow, {
    key: options.key,
    ...(options.anchors !== undefined && { anchors: options.anchors }),
    onProgress: (_store, phase, checked, total) => progress?.update(phase === 'entries' ? 'checking entries' : 'checking kept records', checked, total),
  });
  const reports: ChainReport[] = [];
  const verifyOne = async (id: number) => {
    progress = new ProgressReporter(output.stderr, `history verify: store ${id}`, Date.now, output.quietMs ?? QUIET_MS);
    try {
      const report = await verifier.verify(id);
      progress.finish();
      reports.push(report);
      output.stdout.write(`${JSON.stringify(lineOf(report))}\n`);
    } finally {
      progress.stop();
    }
  };
  if (options.storeId !== undefined) {
    if ((await services.uow.repos.stores.find(options.storeId)) === undefined) throw new Error(`no store ${options.storeId}`);
    await verifyOne(options.storeId);
  } else {
    for (let afterId = 0; ;) {
      const stores = await services.credentials.stores(afterId, STORES_PAGE);
      for (const store of stores) await verifyOne(store.id);
      if (stores.length < STORES_PAGE) break;
      afterId = stores.at(-1)!.id;
    }
  }
  const broken = reports.filter((report) => report.brokenCount > 0);
  const first = broken[0];
  const firstBreak = first?.broken[0];
  if (first !== undefined && firstBreak !== undefined) {
    const where = firstBreak.seq === null ? '' : ` at entry ${firstBreak.seq}`;
    const more = first.brokenCount > 1 ? ` (and ${first.brokenCount - 1} more in it)` : '';
    const others = broken.length > 1 ? `; ${broken.length - 1} other store(s) too` : '';
    throw new BrokenHistory(`the price history of store ${first.storeId} is broken${where} (${firstBreak.problem}): ${firstBreak.detail}${more}${others}`);
  }
}

/** `--expect-head SEQ:HASH`: a head recorded elsewhere (`seq` ≥ 1, `hash` 64 lower-case hex). */
export function parseHead(text: string, what: string): ChainHead {
  const match = /^([1-9]\d{0,15}):([0-9a-f]{64})$/.exec(text);
  if (match === null) throw new UsageError(`${what} must be SEQ:HASH (an entry's seq, a colon, its 64-character lower-case hex hash), got '${text}'`);
  return { seq: Number(match[1]), hash: match[2]! };
}

/**
 * `--anchors FILE`: the lines an earlier `history verify` printed (or any JSON lines with
 * `storeId` and `head`), by store; a line whose head is null (no history yet) anchors nothing.
 */
export function parseAnchors(text: string, file: string): Map<number, ChainHead[]> {
  const anchors = new Map<number, ChainHead[]>();
  const lines = text.split('\n');
  if (lines.length > MAX_ANCHOR_LINES) throw new UsageError(`${file} has more than ${MAX_ANCHOR_LINES} lines`);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}, line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new UsageError(`${where} is not JSON: each line must be one that history verify printed`);
    }
    const { storeId, head } = (typeof value === 'object' && value !== null ? value : {}) as { storeId?: unknown; head?: unknown };
    if (typeof storeId !== 'number' || !Number.isSafeInteger(storeId) || storeId < 1) throw new UsageError(`${where} has no storeId (a positive integer)`);
    if (head === null) return;
    const { seq, hash } = (typeof head === 'object' && head !== undefined ? head : {}) as { seq?: unknown; hash?: unknown };
    if (typeof seq !== 'number' || typeof hash !== 'string') throw new UsageError(`${where} has no head {"seq","hash"} (or null)`);
    anchors.set(storeId, [...(anchors.get(storeId) ?? []), parseHead(`${seq}:${hash}`, `${where}'s head`)]);
  });
  return anchors;
}

/** What `history verify` prints for a store, one JSON line: `broken` and `brokenCount` only when its chain does not hold. */
export type VerifyLine = Pick<ChainReport, 'storeId' | 'entries' | 'records' | 'head' | 'checkpoint' | 'anchors'> & {
  ok: boolean;
} & Partial<Pick<ChainReport, 'broken' | 'brokenCount'>>;

function lineOf(report: ChainReport): VerifyLine {
  return {
    storeId: report.storeId,
    entries: report.entries,
    records: report.records,
    head: report.head,
    checkpoint: report.checkpoint,
    anchors: report.anchors,
    ok: report.brokenCount === 0,
    ...(report.brokenCount > 0 && { broken: report.broken, brokenCount: report.brokenCount }),
  };
}
