/**
 * `1 row`, `2 rows`, `0 rows`; `1 more problem`, `3 more problems`: the last word of `singular`
 * takes an `s` unless the count is 1 (every noun the CLI counts is regular).
 */
export function counted(count: number, singular: string): string {
  return `${count} ${count === 1 ? singular : `${singular}s`}`;
}
