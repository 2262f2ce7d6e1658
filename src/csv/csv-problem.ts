/** A file a CSV reader cannot go on with: malformed CSV, or a row too wide or too long. */
export class CsvProblem extends Error {
  constructor(
    /** Line of the file where it is (the header being 1). */
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}
