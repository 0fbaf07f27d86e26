/* Pith page calls: run inject/*.js and small functions in a tab's isolated world; browser refusals become PithErrors.
 *
 * Every call targets the tab's top frame in the extension's isolated world, which
 * scripting.executeScript shares between calls (files and functions alike) for as long as
 * the document lives: capture.js leaves globalThis.__pith.nodes there (node id → element),
 * highlight.js its overlay API, locate.js the per-site rule selectors and collect.js the
 * reader's collector; later calls use them. holdRows / refindRows carry row lists from one
 * capture to the next through the elements they name (__pith.heldRows in between).
 */
import { PithError } from './errors.js';
import { SEND_LIMIT } from './sendable.js';

const api = globalThis.browser ?? globalThis.chrome;

// highlight.js and locate.js first (they define APIs; their completion values are dropped),
// then capture.js, whose completion value — the snapshot JSON string — is the result.
const CAPTURE_FILES = ['inject/highlight.js', 'inject/locate.js', 'inject/capture.js'];
const HIGHLIGHT_FILES = ['inject/highlight.js'];
const COLLECT_FILES = ['inject/collect.js'];

// What the browsers say when they refuse to script a page.
const NEEDS_GRANT = /must request permission|missing host permission|cannot access contents of the page/i;
const FORBIDDEN = /cannot access|cannot be scripted|extensions gallery|chrome:\/\/|about:|showing error page|restricted|not allowed|permission/i;
const TAB_GONE = /no tab with id|invalid tab id|tab was closed/i;

/** The PithError for an executeScript rejection. */
export function pageError(err) {
  const why = String((err && err.message) || err);
  if (TAB_GONE.test(why)) {
    return new PithError('page_changed', `The tab is gone. (${why})`, { detail: { browser: why } });
  }
  if (NEEDS_GRANT.test(why)) {
    return new PithError('page_forbidden',
      'Pith may not read this page: the browser allows it only after you click the Pith button ' +
      '(or press Alt+Shift+P) on the page itself, and never on browser pages (chrome://, about:), ' +
      `the extension stores or the PDF viewer. Browser said: ${why}`, { detail: { browser: why } });
  }
  if (FORBIDDEN.test(why)) {
    return new PithError('page_forbidden',
      'The browser does not let extensions read this page (browser pages such as chrome:// or ' +
      'about:, the extension stores, the PDF viewer, error pages). Pith works on ordinary web ' +
      `pages. Browser said: ${why}`, { detail: { browser: why } });
  }
  return new PithError('internal', `Pith could not run its script in the page: ${why}`);
}

async function execute(tabId, injection) {
  let results;
  try {
    // injectImmediately: by default the browser holds an injection until the document is
    // idle, so a click on a page still loading would hang instead of saying so.
    results = await api.scripting.executeScript({ target: { tabId }, injectImmediately: true, ...injection });
  } catch (err) {
    throw pageError(err);
  }
  const first = results && results[0];
  if (first && first.error !== undefined) {                 // Firefox reports script errors here
    throw new PithError('internal', `Pith's page script failed: ${first.error && first.error.message || first.error}`);
  }
  return first ? first.result : undefined;
}

// --- the functions below run in the page; they must not use anything from this module ---

function pagePrepare(sendLimit) {
  const g = globalThis;
  if (typeof g.__pith !== 'object' || g.__pith === null) {
    Object.defineProperty(g, '__pith', { value: {}, writable: true, configurable: true, enumerable: false });
  }
  const p = g.__pith;
  if (p.overlay) p.overlay.close({ notify: false });   // the next capture must not see it
  p.sendLimit = sendLimit;                             // read by capture.js
  return document.readyState;
}

function pageShow(sel) {
  const p = globalThis.__pith;
  if (!p || !p.overlay) return { ok: false, reason: 'Pith is not loaded in this page any more' };
  return p.overlay.show(sel);
}

function pageToast(message, kind) {
  const p = globalThis.__pith;
  if (!p || !p.overlay) return false;
  p.overlay.toast(message, kind);
  return true;
}

function pageClose() {
  const p = globalThis.__pith;
  if (p && p.overlay) p.overlay.close({ notify: false });
  return true;
}

function pageCollect(spec) {
  const p = globalThis.__pith;
  if (!p || !p.collect || !p.nodes) return { ok: false, reason: 'Pith is not loaded in this page any more' };
  return p.collect(spec);
}

function pageResolve(selector, minChars) {
  const p = globalThis.__pith;
  return p && p.locate ? p.locate.resolve(selector, minChars) : -1;
}

function pageSelectorFor(row) {
  const p = globalThis.__pith;
  return p && p.locate && p.nodes ? p.locate.selectorFor(row) : null;
}

function pageHoldRows(lists) {
  const p = globalThis.__pith;
  if (!p || !Array.isArray(p.nodes)) return false;
  const held = {};
  for (const [key, rows] of Object.entries(lists)) held[key] = rows.map((r) => p.nodes[r] || null);
  p.heldRows = held;
  return true;
}

function pageRefindRows() {
  const p = globalThis.__pith;
  const held = p && p.heldRows;
  if (!held || !Array.isArray(p.nodes)) return null;
  const at = new Map();
  p.nodes.forEach((el, row) => at.set(el, row));
  const out = {};
  for (const [key, els] of Object.entries(held)) {
    out[key] = els.map((el) => (el && at.has(el) ? at.get(el) : -1)).filter((r) => r >= 0);
  }
  delete p.heldRows;
  return out;
}

// --- calls -----------------------------------------------------------------------------

/** Hide an earlier overlay and tell capture.js what can be sent (sendable.js); the
 * document's readyState. */
export function prepare(tabId) {
  return execute(tabId, { func: pagePrepare, args: [{ ...SEND_LIMIT }] });
}

/** The snapshot JSON string of the page (host/SNAPSHOT.md); also (re)installs highlight.js. */
export async function capture(tabId) {
  const text = await execute(tabId, { files: CAPTURE_FILES });
  if (typeof text !== 'string') {
    throw new PithError('internal', `capture.js returned ${typeof text}, not the snapshot string`);
  }
  return text;
}

function changed(reason) {
  return new PithError('page_changed',
    `The selected block is no longer in the page (${reason}). Press Alt+Shift+P to select again.`);
}

/** Outline `sel` ({node, path, tag}); {ok, rect} or a page_changed error. */
export async function show(tabId, sel) {
  const out = await execute(tabId, { func: pageShow, args: [sel] });
  if (!out || !out.ok) throw changed((out && out.reason) || 'no answer from the page');
  return out;
}

/** The reader's content payload (extension/READER.md) of `spec` = {node, drop, links, quiet}. */
export async function collect(tabId, spec) {
  await execute(tabId, { files: COLLECT_FILES });
  const out = await execute(tabId, { func: pageCollect, args: [spec] });
  if (!out || !out.ok) throw changed((out && out.reason) || 'no answer from the page');
  return out.payload;
}

/** Row of the last capture that `selector` names (a per-site rule), or -1. */
export async function resolveRule(tabId, selector, minChars) {
  const row = await execute(tabId, { func: pageResolve, args: [selector, minChars] });
  return Number.isInteger(row) ? row : -1;
}

/** Keep the elements of `lists` ({name: [row…]}, rows of the last capture) in the page,
 * for refindRows after the next capture. */
export function holdRows(tabId, lists) {
  return execute(tabId, { func: pageHoldRows, args: [lists] });
}

/** The rows the held elements have in the capture made since ({name: [row…]}, elements no
 * longer captured left out), or null when nothing was held. */
export function refindRows(tabId) {
  return execute(tabId, { func: pageRefindRows });
}

/** {selector, tag, chars} naming row `row` of the last capture, or null when none can. */
export function selectorFor(tabId, row) {
  return execute(tabId, { func: pageSelectorFor, args: [row] });
}

/** Show `message` inside the page ('error' red, 'info' neutral); false when it cannot. */
export async function toast(tabId, message, kind = 'error') {
  try {
    if (await execute(tabId, { func: pageToast, args: [message, kind] })) return true;
    await execute(tabId, { files: HIGHLIGHT_FILES });
    return !!(await execute(tabId, { func: pageToast, args: [message, kind] }));
  } catch (e) {
    return false;
  }
}

/** Remove the overlay, if the page still has one. */
export async function close(tabId) {
  try {
    await execute(tabId, { func: pageClose });
  } catch (e) {
    // a page we cannot script has no overlay to remove
  }
}
