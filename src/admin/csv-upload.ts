import { encodingProblem } from '../csv/file-encoding.js';

/** A CSV file chosen to upload: its bytes as they are, and `problem` when they are not text the API reads. */
export interface CsvUpload {
  bytes: Uint8Array;
  /** In the CLI's words after the file's name ("prices.csv is not UTF-8 text: … it looks like Windows-1252 …"): what it is and how to save it instead. */
  problem?: string;
}

/** Reads `file` and checks it as `pricebook prices import` does before anything is sent (a workbook, UTF-16, Latin-1 or Windows-1252). */
export async function readCsvUpload(file: File): Promise<CsvUpload> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const problem = encodingProblem(bytes);
  return problem === undefined ? { bytes } : { bytes, problem: `${file.name} ${problem}` };
}
