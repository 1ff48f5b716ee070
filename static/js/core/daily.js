/**
 * daily — the browser's local calendar date (the server turns it into the daily board) and a
 * small string hash (the lobby's avatar colours).
 *
 *   localDate(date?)        → "YYYY-MM-DD", the browser's local calendar date (default: now)
 *   fnv1a32(text)           → 32-bit FNV-1a over the UTF-8 bytes of text (unsigned)
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function localDate(date = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function fnv1a32(text) {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash ^ byte, FNV_PRIME) >>> 0;
  }
  return hash >>> 0;
}
