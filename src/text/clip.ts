/**
 * `text`, or its first `length` characters and an ellipsis: what a message quotes of a value,
 * whatever its length (a pair of UTF-16 surrogates is never cut in half).
 *
 * No imports, no Node or DOM APIs: the server, the CLI and the admin page can all load it.
 */
export function clip(text: string, length = 40): string {
  if (text.length <= length) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(length - 1)) ? length - 1 : length;
  return `${text.slice(0, end)}…`;
}
