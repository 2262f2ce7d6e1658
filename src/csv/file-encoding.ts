/** Bytes looked at to guess a file's encoding: the work is bounded whatever the file's size. */
const SNIFF_BYTES = 64 * 1024;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * Why the bytes are not UTF-8 text, naming what they likely are and how to save them instead,
 * or undefined; said after the file's name ("prices.csv is not UTF-8 text: …"). A small heuristic
 * of our own over the first 64 KiB: ZIP and OLE magic numbers, UTF-16 byte-order marks or NUL
 * bytes every other byte, else stray bytes ≥ 0x80 (Windows-1252 when one falls in 0x80–0x9F,
 * which Latin-1 leaves to control characters). The CLI checks a file with it before it uploads
 * one, and the admin page before it sends one; no Node API, so the browser runs it as it is.
 */
export function encodingProblem(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (startsWith(head, ZIP_MAGIC)) {
    return 'is an Excel workbook (.xlsx, a ZIP file), not CSV: save it as "CSV UTF-8 (comma delimited)" and import that';
  }
  if (startsWith(head, OLE_MAGIC)) {
    return 'is an Excel 97-2003 workbook (.xls), not CSV: save it as "CSV UTF-8 (comma delimited)" and import that';
  }
  const utf16 = utf16Of(head);
  if (utf16 !== undefined)
    return `is not UTF-8 text: it looks like ${utf16}; save it as "CSV UTF-8", or convert it (iconv -f ${utf16 === 'UTF-16 LE' ? 'UTF-16LE' : 'UTF-16BE'} -t UTF-8)`;
  if (isUtf8(bytes)) return undefined;
  // The head may end inside a sequence the rest of the file completes; the file may not.
  const at = firstInvalidUtf8(head, head.length < bytes.length) ?? firstInvalidUtf8(bytes, false) ?? 0;
  let line = 1;
  for (let newline = bytes.indexOf(0x0a); newline !== -1 && newline < at; newline = bytes.indexOf(0x0a, newline + 1)) line += 1;
  const windows1252 = head.some((byte) => byte >= 0x80 && byte <= 0x9f);
  const guess = windows1252 ? 'Windows-1252' : 'Windows-1252 or Latin-1 (ISO-8859-1)';
  const iconv = windows1252 ? 'WINDOWS-1252' : 'LATIN1';
  return `is not UTF-8 text: byte 0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')} on line ${line} is not UTF-8; it looks like ${guess}. Save it as "CSV UTF-8", or convert it (iconv -f ${iconv} -t UTF-8)`;
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function utf16Of(head: Uint8Array): 'UTF-16 LE' | 'UTF-16 BE' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'UTF-16 LE';
  if (head[0] === 0xfe && head[1] === 0xff) return 'UTF-16 BE';
  // Without a mark: ASCII text in UTF-16 has a NUL in every other byte.
  let evenNuls = 0;
  let oddNuls = 0;
  const pairs = Math.floor(Math.min(head.length, 1024) / 2);
  for (let index = 0; index < pairs; index++) {
    if (head[2 * index] === 0) evenNuls += 1;
    if (head[2 * index + 1] === 0) oddNuls += 1;
  }
  if (pairs >= 2 && oddNuls >= pairs * 0.5 && evenNuls === 0) return 'UTF-16 LE';
  if (pairs >= 2 && evenNuls >= pairs * 0.5 && oddNuls === 0) return 'UTF-16 BE';
  return undefined;
}

/** Offset of the first byte that starts no valid UTF-8 sequence, or undefined; a sequence cut off at the end counts as valid when `cutOffIsValid`. */
function firstInvalidUtf8(bytes: Uint8Array, cutOffIsValid: boolean): number | undefined {
  for (let index = 0; index < bytes.length;) {
    const byte = bytes[index]!;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next++) {
      if (index + next >= bytes.length) return cutOffIsValid ? undefined : index;
      if ((bytes[index + next]! & 0xc0) !== 0x80) return index;
    }
    index += length;
  }
  return undefined;
}
