/* Pith sendable: what of a capture goes to the host, each text cut at MAX_TEXT_CHARS and the frame checked against the 63 MiB a native message may carry.
 *
 * The host scores a text by how long it is; past a million characters (some 500 printed
 * pages in one text node: a log, a generated page) no choice can change, while every megabyte
 * costs the browser's native messaging time (Firefox ESR took 29 s for a 50 MB text node, the
 * host 6 s more). The reader and the overlay read the page itself, not the snapshot, so a
 * cut text costs the person nothing; the command line captures without this cut.
 */
import { PithError } from './errors.js';

// A row's `text` or `tail` longer than this is cut to it (host/SNAPSHOT.md, `text_cut`).
export const MAX_TEXT_CHARS = 1 << 20;
// Largest snapshot sent to the host: Chrome refuses native messages over 64 MiB (and kills
// the port), and the host's max_in is the same; 1 MiB stays free for the request around it.
export const MAX_SNAPSHOT_BYTES = 63 * 1024 * 1024;

/** Cut every `text` and `tail` of `snapshot` (a parsed capture) longer than `limit`
 * characters, with a `text_cut` warning per row; returns the number of characters removed. */
export function cutLongTexts(snapshot, limit = MAX_TEXT_CHARS) {
  const nodes = snapshot && snapshot.nodes;
  if (!nodes || typeof nodes !== 'object') return 0;     // the host says what is wrong with it
  let removed = 0;
  for (const column of ['text', 'tail']) {
    const values = nodes[column];
    if (!Array.isArray(values)) continue;
    for (let row = 0; row < values.length; row++) {
      const value = values[row];
      if (typeof value !== 'string' || value.length <= limit) continue;
      let end = limit;
      const last = value.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) end -= 1;   // never split a surrogate pair
      values[row] = value.slice(0, end);
      removed += value.length - end;
      if (!Array.isArray(snapshot.warnings)) snapshot.warnings = [];
      snapshot.warnings.push({
        node: row, code: 'text_cut',
        message: `${column} of ${value.length.toLocaleString('en')} characters cut to ${end.toLocaleString('en')}`,
      });
    }
  }
  return removed;
}

// What inject/capture.js is told before it runs (page.prepare): a capture whose JSON, less
// the most this module's cut can take, is still over `bytes` characters is surely over as
// many bytes of UTF-8, so the page answers {too_large} and the megabytes never cross.
export const SEND_LIMIT = Object.freeze({ bytes: MAX_SNAPSHOT_BYTES, textChars: MAX_TEXT_CHARS });

/** Throw page_too_large when the capture JSON `text`, less `removed` characters cut from
 * its strings, may be over MAX_SNAPSHOT_BYTES of UTF-8. A removed character is at least
 * one byte of the JSON, so the bound is never below the real size. */
export function checkSendable(text, removed = 0) {
  if ((text.length - removed) * 3 <= MAX_SNAPSHOT_BYTES) return;   // UTF-8 is at most 3 bytes a unit
  const bytes = new TextEncoder().encode(text).length - removed;
  if (bytes > MAX_SNAPSHOT_BYTES) throw tooLarge(bytes, 'is');
}

/** Throw page_too_large when the page itself refused its capture (`snapshot.too_large`,
 * {at_least, limit}: its JSON was surely over SEND_LIMIT.bytes). */
export function checkRefusedInPage(snapshot) {
  const over = snapshot && snapshot.too_large;
  if (over && typeof over === 'object') throw tooLarge(Number(over.at_least) || 0, 'is at least');
}

function tooLarge(bytes, is) {
  const mb = (n) => `${Math.round(n / (1024 * 1024))} MB`;
  return new PithError('page_too_large',
    `This page is too large for Pith in the browser: its capture ${is} ${mb(bytes)}, over the ` +
    `${mb(MAX_SNAPSHOT_BYTES)} that fit in one message to the Pith host. The command line ` +
    'reads it: pith extract URL', { detail: { bytes, limit: MAX_SNAPSHOT_BYTES } });
}
