/* Pith actions: extract, grow, shrink, close and open the reader for one tab, with their timings.
 *
 * extract: hide an old overlay → inject highlight.js + locate.js + capture.js (snapshot
 *          JSON string) → a per-site rule's selector resolved in the page (rules.js) →
 *          host `select` (the user's option overrides, the rule's row as `pin`) → save the
 *          selection → outline it (highlight.js).
 * grow / shrink: host `grow` / `shrink` on the saved selection → save → outline, with the
 *          offer to remember the corrected block for the site.
 * remember: a selector for the selected element (locate.js) saved as the site's rule.
 * reader: host `clean` (what to leave out, with the reader's include / exclude rows) →
 *          inject/collect.js builds the sanitised content payload (extension/READER.md) →
 *          storage.session → ui/reader.html.
 *
 * The selection {doc, node, path, trail, trailPaths, tag, session, blocks, include,
 * exclude} lives in state.js, so a restarted service worker carries on. `blocks` is the
 * host's block stage for the node ({kept, drop, quiet, truncated}, null with the stage
 * off); the overlay dims its `drop` rows, and a click there (or on a kept block in edit
 * mode) changes `include` / `exclude`, the reader's own block decisions that `clean` gets
 * (inject/highlight.js). Both lists start empty at every extract, grow and shrink: a new
 * element has new blocks. `doc` belongs to one host process (`session`): when
 * the host has restarted since (it was killed, or the worker stopped and took the port
 * along), the page is captured again and the selection found by its `path`, its block rows
 * by their elements, so grow, shrink and the reader still work. Commands for one tab run
 * one after the other (block edits from the page too). Every command answers
 * {ok: true, node, path, tag, doc, timings} (extract, grow and shrink also `blocks`) or
 * {ok: false, error: {code, name, message}}; an error is also shown in the page when it
 * can be, and in the badge and title.
 *
 * Messages (runtime.onMessage; the overlay's buttons and keys, the options page, tests; a
 * script in a web page may send only the overlay's commands and block decisions, for its own
 * tab, see PAGE_COMMANDS):
 *   {type: "pith:command", command: "extract"|"grow"|"shrink"|"remember"|"close"|"reader", tabId?}
 *        → the command's answer (tabId defaults to the sender's tab)
 *   {type: "pith:blocks", doc, node, include: [row…], exclude: [row…], tabId?}
 *        → {ok: true, node, include, exclude}: the overlay's block decisions, saved in the
 *        tab's selection when it is still that doc and node (else page_changed)
 *   {type: "pith:state", tabId}  → {ok: true, ...selection}, node null when none
 *   {type: "pith:hello"}         → {ok, hello | error, storage}: the host's hello
 *   {type: "pith:last", tabId}   → {ok: true, seq, reply}: the last command's answer (a
 *        toolbar click answers no one; tests and tests/bench_extension.py read it here)
 * Timings (ms, performance.now() in the worker): capture = the prepare and capture.js
 * injections (walk_ms: capture.js's own time inside the page), transfer = the select
 * round trip minus host_ms (JSON.parse here, native messaging both ways, the host's frame
 * decoding), host = the host pipeline, highlight = drawing the outline, total = all.
 */
import { readerHeader } from './reader-header.js';
import * as badge from './badge.js';
import { PithError, toWire } from './errors.js';
import { host } from './native-host.js';
import * as page from './page.js';
import * as rules from './rules.js';
import { checkRefusedInPage, checkSendable, cutLongTexts } from './sendable.js';
import * as settings from './settings.js';
import * as state from './state.js';

const api = globalThis.browser ?? globalThis.chrome;

/** Manifest command name → action; tests/test_manifest.py checks every command has one. */
export const COMMAND_ACTIONS = Object.freeze({
  extract: 'extract', grow: 'grow', shrink: 'shrink', 'open-reader': 'reader',
});

const queues = new Map();        // tabId → promise of the command running there
// Most rows an include or exclude list keeps: the host's own cap on a `blocks` list; a
// person toggles a few dozen at most.
const MAX_BLOCK_ROWS = 20000;
const last = new Map();          // tabId → {seq, reply} of its last command (tests, benchmarks)
let seq = 0;

const now = () => performance.now();
const ms = (t) => Math.round(t * 100) / 100;

function unknownCommand(name) {
  return new PithError('bad_request',
    `unknown command ${JSON.stringify(name)}; known: ${Object.keys(ACTIONS).join(', ')}`);
}

/** Run `job()` on tab `tabId` after what runs there already; its promise. */
function enqueue(tabId, job) {
  const previous = queues.get(tabId) || Promise.resolve();
  const run = previous.then(job);
  queues.set(tabId, run);
  run.finally(() => { if (queues.get(tabId) === run) queues.delete(tabId); });
  return run;
}

/** Run command `name` on tab `tabId`; resolves (never rejects) with the reply. */
export function command(name, tabId) {
  return enqueue(tabId, () => execute(name, tabId));
}

async function execute(name, tabId) {
  let reply;
  try {
    if (!Number.isInteger(tabId)) throw new PithError('bad_request', 'no tab given (tabId)');
    const key = Object.hasOwn(COMMAND_ACTIONS, name) ? COMMAND_ACTIONS[name] : name;
    if (!Object.hasOwn(ACTIONS, key)) throw unknownCommand(name);
    const action = ACTIONS[key];
    reply = { ok: true, ...(await action(tabId)) };
  } catch (err) {
    reply = { ok: false, error: toWire(err) };
    if (Number.isInteger(tabId)) await report(tabId, reply.error);
  }
  last.set(tabId, { seq: ++seq, reply });
  return reply;
}

/** {seq, reply} of the last command on `tabId` (seq counts every command), or null. */
export function lastReply(tabId) {
  return last.get(tabId) ?? null;
}

async function report(tabId, error) {
  // A block that cannot grow or shrink further is still selected: say so in the page only.
  if (error.name !== 'bad_node') await badge.failed(tabId, error);
  if (error.name !== 'page_forbidden' && error.name !== 'bad_request') {
    await page.toast(tabId, error.message);
  }
}

// --- extract -----------------------------------------------------------------------------

/** The row a saved rule of the page's site names in the capture just made:
 * {pin: row or null, rule: 'applied' | 'stale' | null, site}. */
async function ruleFor(tabId, url) {
  const site = rules.siteOf(url);
  const rule = await rules.get(site);
  if (!rule) return { pin: null, rule: null, site };
  const row = await page.resolveRule(tabId, rule.selector, rules.MIN_CHARS);
  return row >= 0 ? { pin: row, rule: 'applied', site } : { pin: null, rule: 'stale', site };
}

/** Capture the page and let the host choose: {snapshot, result, rule, site, timings};
 * `useRules` false ignores the site's rule (re-finding a selection the user moved). */
async function captureAndSelect(tabId, { useRules = true } = {}) {
  const t0 = now();
  const ready = await page.prepare(tabId);
  if (ready === 'loading') {
    throw new PithError('page_loading',
      'The page is still loading. Click Pith again (or press Alt+Shift+P) when it has finished.');
  }
  const text = await page.capture(tabId);
  const t1 = now();
  const snapshot = JSON.parse(text);
  checkRefusedInPage(snapshot);
  checkSendable(text, cutLongTexts(snapshot));
  const found = useRules ? await ruleFor(tabId, snapshot.url) : { pin: null, rule: null, site: null };
  const options = await settings.hostOptions();
  const result = await retryOnce(() => host.request('select', { snapshot, options, pin: found.pin }));
  const t2 = now();
  const hostMs = (result.timings && result.timings.total_ms) || 0;
  return {
    snapshot, result, rule: found.rule, site: found.site,
    timings: {
      capture_ms: ms(t1 - t0), walk_ms: snapshot.capture_ms, snapshot_bytes: text.length, n: snapshot.n,
      transfer_ms: ms(t2 - t1 - hostMs), host_ms: ms(hostMs),
    },
  };
}

/** `fn()`, again once when the host died under it (it restarts on the second call). */
async function retryOnce(fn) {
  try {
    return await fn();
  } catch (err) {
    if (err.name !== 'host_exited') throw err;
    return fn();
  }
}

async function extract(tabId) {
  const t0 = now();
  badge.busy(tabId);
  const { snapshot, result, rule, site, timings } = await captureAndSelect(tabId);
  const sel = {
    doc: result.doc, node: result.node, path: result.path, tag: result.tag,
    trail: [], trailPaths: [], session: host.session,
    url: snapshot.url, title: snapshot.title, site, rule, offerRemember: false,
    ...freshBlocks(result), comments: threadRoots(result),
  };
  const t1 = now();
  await outline(tabId, sel);
  const t2 = now();
  timings.highlight_ms = ms(t2 - t1);
  timings.total_ms = ms(t2 - t0);
  if (rule === 'applied') {
    page.toast(tabId, `Pith chose the block you saved for ${site}. (Pith's settings list and delete saved blocks.)`, 'info');
  } else if (rule === 'stale') {
    page.toast(tabId, `The block you saved for ${site} is not on this page any more; Pith chose one itself.`, 'info');
  }
  return {
    ...describe(sel), blocks: sel.blocks, comments: sel.comments, score: result.score, chars: result.chars,
    algorithm: result.algorithm, rule, timings,
  };
}

function describe(sel) {
  return { node: sel.node, path: sel.path, tag: sel.tag, doc: sel.doc };
}

/** The comment thread of `select` reply `res` as the overlay outlines it on request
 * ({roots: [row…]}, the host's `comments.roots`), or null: it belongs to the capture, so
 * grow and shrink keep it. */
function threadRoots(res) {
  const c = res.comments;
  return c && Array.isArray(c.roots) ? { roots: c.roots.map((r) => r && r.node).filter(Number.isInteger) } : null;
}

/** The block part of a selection on the node of host reply `res`: its `blocks` (null
 * with the block stage off) and no decisions of the reader yet. */
function freshBlocks(res) {
  return { blocks: res.blocks ?? null, include: [], exclude: [] };
}

async function outline(tabId, sel) {
  await Promise.all([state.saveSelection(tabId, sel), page.show(tabId, sel)]);
  badge.selected(tabId, sel.tag);
}

// --- grow and shrink ---------------------------------------------------------------------

async function requireSelection(tabId) {
  const sel = await state.selection(tabId);
  if (sel === null) {
    throw new PithError('no_selection',
      'Nothing is selected on this page yet: click Pith (or press Alt+Shift+P) first.');
  }
  return sel;
}

/** Row of the element at `path` in a snapshot's parent column, or -1. */
export function nodeAt(parent, path) {
  const n = parent.length;
  if (n === 0) return -1;
  const seen = new Int32Array(n);                 // children seen so far, per row
  let cur = 0;
  let depth = 0;
  for (let r = 1; r < n && depth < path.length; r++) {
    const p = parent[r];
    const index = seen[p]++;
    if (p === cur && index === path[depth]) {
      cur = r;
      depth++;
    }
  }
  return depth === path.length ? cur : -1;
}

/** The selection's block rows ({kept, drop, quiet} of `blocks`, include, exclude). */
function blockRows(sel) {
  const b = sel.blocks;
  return {
    kept: b ? b.kept : [], drop: b ? b.drop : [], quiet: b ? b.quiet : [],
    include: sel.include ?? [], exclude: sel.exclude ?? [],
  };
}

/** The selection re-found in a new capture, for a host that no longer holds its doc; its
 * block rows follow their elements into the new capture (rows of elements gone are left out). */
async function reselect(tabId, sel) {
  const held = Object.values(blockRows(sel)).some((list) => list.length > 0);
  if (held) await page.holdRows(tabId, blockRows(sel));
  const { snapshot, result } = await captureAndSelect(tabId, { useRules: false });
  const parent = snapshot.nodes.parent;
  const node = nodeAt(parent, sel.path);
  const trail = sel.trailPaths.map((p) => nodeAt(parent, p));
  if (node < 0 || trail.includes(-1) || snapshot.nodes.tag[node] !== sel.tag) {
    throw new PithError('page_changed',
      'The page changed since the selection was made. Press Alt+Shift+P to select again.');
  }
  const next = { ...sel, doc: result.doc, node, trail, session: host.session, comments: threadRoots(result) };
  if (held) {
    const moved = await page.refindRows(tabId);
    if (moved === null) throw new PithError('page_changed', 'The page lost the selection\'s blocks. Press Alt+Shift+P to select again.');
    next.include = moved.include;
    next.exclude = moved.exclude;
    if (sel.blocks) next.blocks = { ...sel.blocks, kept: moved.kept, drop: moved.drop, quiet: moved.quiet };
  }
  return next;
}

function isStale(err) {
  return err.name === 'host_exited'
    || (err.name === 'bad_request' && !!err.detail && 'doc' in err.detail);
}

/** Host action `action` on the tab's selection, re-selecting once when the host lost it. */
async function move(tabId, action, extra) {
  const t0 = now();
  let sel = await requireSelection(tabId);
  if (sel.session !== host.session) sel = await reselect(tabId, sel);
  let res;
  try {
    res = await host.request(action, { doc: sel.doc, node: sel.node, ...extra(sel) });
  } catch (err) {
    if (!isStale(err)) throw err;
    sel = await reselect(tabId, sel);
    res = await host.request(action, { doc: sel.doc, node: sel.node, ...extra(sel) });
  }
  const t1 = now();
  return { sel, res, t0, t1 };
}

async function finish(tabId, next, t0, t1) {
  await outline(tabId, next);
  const t2 = now();
  return {
    ...describe(next), blocks: next.blocks,
    timings: { host_ms: ms(t1 - t0), highlight_ms: ms(t2 - t1), total_ms: ms(t2 - t0) },
  };
}

async function grow(tabId) {
  const { sel, res, t0, t1 } = await move(tabId, 'grow', () => ({}));
  const next = {
    ...sel, node: res.node, path: res.path, tag: res.tag,
    trail: [...sel.trail, sel.node], trailPaths: [...sel.trailPaths, sel.path],
    offerRemember: !!sel.site, ...freshBlocks(res),
  };
  return finish(tabId, next, t0, t1);
}

async function shrink(tabId) {
  const { sel, res, t0, t1 } = await move(tabId, 'shrink', (s) => ({ trail: s.trail }));
  const back = sel.trail.length > 0 && sel.trail[sel.trail.length - 1] === res.node;
  const next = {
    ...sel, node: res.node, path: res.path, tag: res.tag,
    trail: back ? sel.trail.slice(0, -1) : sel.trail,
    trailPaths: back ? sel.trailPaths.slice(0, -1) : sel.trailPaths,
    offerRemember: !!sel.site, ...freshBlocks(res),
  };
  return finish(tabId, next, t0, t1);
}

// --- close and reader --------------------------------------------------------------------

async function close(tabId) {
  const sel = await state.selection(tabId);
  await Promise.all([page.close(tabId), state.forget(tabId), badge.clear(tabId)]);
  return { closed: true, ...(sel ? describe(sel) : {}) };
}

// storage.session holds 10 MB in Chrome; a payload near that is a block no one reads in one
// sitting (the collector's caps make it rare), and it would crowd out the selections.
const READER_MAX_CHARS = 8 * 1024 * 1024;

/** `clean`'s include / exclude of a selection, sent only when there are some (a host
 * older than the block stage refuses unknown parameters). */
function decisions(sel) {
  const out = {};
  if (sel.include && sel.include.length) out.include = sel.include;
  if (sel.exclude && sel.exclude.length) out.exclude = sel.exclude;
  return out;
}

async function reader(tabId) {
  const t0 = now();
  const { sel, res } = await move(tabId, 'clean', decisions);
  await state.saveSelection(tabId, sel);           // move may have re-found it in a new capture
  const t1 = now();
  const collected = await page.collect(tabId, {
    node: sel.node, drop: res.drop, links: res.links, quiet: res.quiet ?? [],
  });
  const payload = { ...collected, ...readerHeader(res.metadata) };
  if (res.comments && typeof res.comments.text === 'string') {
    // the thread under the post, apart from the body (READER.md "comments")
    payload.comments = { text: res.comments.text, truncated: res.comments.truncated === true };
  }
  const size = JSON.stringify(payload).length;
  if (size > READER_MAX_CHARS) {
    throw new PithError('block_too_large',
      `The selected block is too large for the reader view (${(size / 1048576).toFixed(1)} MB of ` +
      'content). Shrink the selection (\u2212) and open the reader again.');
  }
  await state.saveReader(tabId, payload);
  const t2 = now();
  const source = await api.tabs.get(tabId);
  const url = `${api.runtime.getURL('ui/reader.html')}?tab=${tabId}`;
  const tab = await api.tabs.create({ url, openerTabId: tabId, index: source.index + 1 });
  return {
    ...describe(sel), readerTabId: tab.id,
    timings: { host_ms: ms(t1 - t0), collect_ms: ms(t2 - t1), total_ms: ms(now() - t0) },
  };
}

async function remember(tabId) {
  const sel = await requireSelection(tabId);
  const site = sel.site || rules.siteOf(sel.url);
  if (!site) {
    throw new PithError('cannot_remember', 'Pith remembers blocks only for web sites (http and https pages).');
  }
  const found = await page.selectorFor(tabId, sel.node);
  if (!found) {
    throw new PithError('cannot_remember',
      'Pith cannot name this block so that it finds it again (it is the whole page, or the ' +
      'page changed). Grow or shrink to another block and try again.');
  }
  await rules.save(site, {
    selector: found.selector, tag: found.tag, chars: found.chars, path: sel.path,
    title: sel.title || '', saved: new Date().toISOString(),
  });
  const next = { ...sel, site, offerRemember: false, rule: 'saved' };
  await outline(tabId, next);
  page.toast(tabId, `Saved: on ${site} Pith will choose this block from now on. Pith's settings list and delete saved blocks.`, 'info');
  return { ...describe(next), site, selector: found.selector };
}

const ACTIONS = Object.freeze({ extract, grow, shrink, remember, close, reader });

// --- the reader's block decisions ---------------------------------------------------------

/** Rows of `list` (non-negative integers, once each, at most MAX_BLOCK_ROWS), or null. */
function rowList(list) {
  if (!Array.isArray(list) || list.length > MAX_BLOCK_ROWS) return null;
  if (!list.every((r) => Number.isInteger(r) && r >= 0)) return null;
  return [...new Set(list)];
}

/** Save the overlay's include / exclude rows in the tab's selection, if it is still the
 * selection the overlay shows (same doc and node). */
async function saveBlocks(tabId, msg) {
  try {
    if (!Number.isInteger(tabId)) throw new PithError('bad_request', 'no tab given (tabId)');
    const include = rowList(msg.include), exclude = rowList(msg.exclude);
    if (include === null || exclude === null) {
      throw new PithError('bad_request', `include and exclude must be lists of at most ${MAX_BLOCK_ROWS} rows`);
    }
    const sel = await state.selection(tabId);
    if (sel === null || sel.doc !== msg.doc || sel.node !== msg.node) {
      throw new PithError('page_changed',
        'This outline is out of date, so Pith did not keep that change. Press Alt+Shift+P to select again.');
    }
    await state.saveSelection(tabId, { ...sel, include, exclude });
    return { ok: true, node: sel.node, include, exclude };
  } catch (err) {
    return { ok: false, error: toWire(err) };
  }
}

// --- entry points used by background.js ----------------------------------------------------

/** A manifest command (keyboard shortcut) on `tab`. */
export async function onCommand(name, tab) {
  const action = COMMAND_ACTIONS[name];
  let tabId = tab && tab.id;
  if (!Number.isInteger(tabId)) {
    const [active] = await api.tabs.query({ active: true, lastFocusedWindow: true });
    tabId = active && active.id;
  }
  return command(action ?? name, tabId);
}

/** Forget a tab's selection (it navigated, or closed when `removed`). */
export async function forget(tabId, removed = false) {
  queues.delete(tabId);
  last.delete(tabId);
  await Promise.all([state.forget(tabId, { removed }), removed ? null : badge.clear(tabId)]);
}

// What a script in a web page (the overlay, injected into the page's isolated world) may
// ask, always for its own tab: its buttons and keys, and its block decisions. A content
// script's messages are less trusted than Pith's own pages' (a compromised renderer can
// send any), so they name no other tab and read no state.
const PAGE_COMMANDS = new Set(['grow', 'shrink', 'remember', 'reader', 'close']);

/** Whether `sender` is a script in a web page rather than one of Pith's own pages. */
function inPage(sender) {
  return Boolean(sender && sender.tab) && !String(sender.url || '').startsWith(api.runtime.getURL(''));
}

/** runtime.onMessage: a Promise of the answer, or undefined for messages that are not Pith's
 * (or that a page's script may not send). */
export function onMessage(msg, sender) {
  if (!msg || typeof msg !== 'object') return undefined;
  if (inPage(sender)) {
    if (msg.type === 'pith:command' && PAGE_COMMANDS.has(msg.command)) return command(msg.command, sender.tab.id);
    if (msg.type === 'pith:blocks') return enqueue(sender.tab.id, () => saveBlocks(sender.tab.id, msg));
    return undefined;
  }
  const tabId = Number.isInteger(msg.tabId) ? msg.tabId : sender && sender.tab && sender.tab.id;
  switch (msg.type) {
    case 'pith:command':
      return command(msg.command, tabId);
    case 'pith:blocks':
      return enqueue(tabId, () => saveBlocks(tabId, msg));
    case 'pith:state':
      return selectionOf(tabId);
    case 'pith:hello':
      return hello();
    case 'pith:last':       // a toolbar click answers no one: tests and benchmarks read it here
      return Promise.resolve({ ok: true, ...(lastReply(tabId) ?? { seq: 0, reply: null }) });
    default:
      return undefined;
  }
}

/** {ok: true, ...selection} of `tabId`; `node` is null when nothing is selected there. */
export async function selectionOf(tabId) {
  const sel = Number.isInteger(tabId) ? await state.selection(tabId) : null;
  return { ok: true, ...(sel ?? { node: null }) };
}

/** {ok, hello, storage} of the running host (started if needed), for the options page. */
export async function hello() {
  try {
    return { ok: true, hello: await host.info(), storage: state.backend };
  } catch (err) {
    return { ok: false, error: toWire(err), storage: state.backend };
  }
}
