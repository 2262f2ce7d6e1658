/** A window of a list ordered by id ascending. */
export interface Page {
  /** 1–100. */
  count: number;
  offset: number;
}

export const DEFAULT_PAGE: Page = Object.freeze({ count: 50, offset: 0 });
