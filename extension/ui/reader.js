/* Pith reader page: render the content payload of ?tab=ID (storage "reader:<ID>"), apply the reader preferences, export.
 *
 * The payload (READER.md "Content payload") comes from storage.session, or storage.local
 * where storage.session is missing (background/state.js falls back the same way). Its
 * tree is rendered by content-dom.js (allow-list checked again, DOM built without parsing
 * HTML); the Markdown by markdown.js; the saved HTML file by export.js; the preferences
 * by prefs.js, followed live when the options page (or another reader) changes them.
 *
 * Read aloud is narrate.js's (its keys, Space and the arrows, are handed to it first).
 *
 * Keys (ignored while typing in a field or with Ctrl/Alt/Meta held): t cycles the theme,
 * + (or =) and - change the text size, Escape leaves a toolbar control so the keys work
 * again (and closes the Settings menu, back on its button). There is nothing to close: the
 * reader is a normal tab.
 *
 * The toolbar: when its controls do not fit on one row (a narrow window, a phone-sized
 * side panel), <html data-toolbar="narrow"> folds them into a Settings menu button
 * (aria-expanded; reader.css opens the panel below it); wide, they sit in one row. It is
 * measured again on every resize and when the removed-links control comes or goes.
 * A code block wider than the column gets data-scrolls="true", a tab stop and a name, so
 * the keyboard scrolls it too (reader.css draws the shadow that says it scrolls).
 *
 * Test hooks: globalThis.pithReader = {payload, markdown(), html(), prefs(), violations,
 * shownAt} where html() resolves to the saved file's text, violations counts the page's
 * securitypolicyviolation events (tests expect 0) and shownAt is Date.now() when the
 * content was first shown (tests/bench_extension.py times click → reader with it). <html data-state> is "loading", then
 * "ready", "empty" (nothing to show) or "error".
 */
import { THREAD_CUT, commentParagraphs, renderTree, safeHref, safePageUrl } from './content-dom.js';
import { downloadText, exportHtml } from './export.js';
import { fileName, readerContent, toMarkdown } from './markdown.js';
import * as prefsStore from './prefs.js';

const api = globalThis.browser ?? globalThis.chrome;

let violations = 0;
document.addEventListener('securitypolicyviolation', () => { violations += 1; });

// READER.md: reading time is words / 238 per minute, rounded up (its example: 1234 words, 6 min), at least 1.
const WORDS_PER_MINUTE = 238;
const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const RFC_2822 = /^(?:[A-Z][a-z]{2}, )?\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b/;
const HELP = [
  'Nothing to read yet.',
  'Select a block first: on a web page, click the Pith button in the toolbar (or press Alt+Shift+P), '
    + 'then press R (or Alt+Shift+R) to open the selection here.',
];

// Said in the status line when the collector hit one of its limits (READER.md, "Limits").
const TRUNCATED = 'This block is longer or deeper than the reader view keeps: the end of it, or its ' +
  'deepest parts, are only on the page. Shrink the selection to read a part in full.';

const $ = (id) => document.getElementById(id);
const root = document.documentElement;
const state = { payload: null, prefs: { ...prefsStore.DEFAULTS }, key: null, saving: 0, shownAt: 0 };
let narration = null;          // read aloud (narrate.js), loaded at its first use
let narrationLoading = null;

globalThis.pithReader = Object.freeze({
  get payload() { return state.payload; },
  markdown: () => (state.payload ? toMarkdown(state.payload, { removedLinks: state.prefs.removedLinks, comments: $('comments').open }) : ''),
  html: async () => (state.payload ? (await buildHtml()).html : ''),
  prefs: () => ({ ...state.prefs }),
  get violations() { return violations; },
  get shownAt() { return state.shownAt; },
  narration: () => (narration ? narration.state() : { mode: 'idle', block: -1, sentence: -1, blocks: 0 }),
});

// --- status line ---------------------------------------------------------------------------
function say(message, { error = false } = {}) {
  const status = $('status');
  status.classList.toggle('error', error);
  status.textContent = message;
}

// --- toolbar and wide code ------------------------------------------------------------------
/** Wide when the controls fit on one row of the toolbar, else narrow (the Settings menu). */
function fitToolbar() {
  const panel = $('toolbar-panel');
  root.dataset.toolbar = 'wide';
  const fits = panel.scrollWidth <= panel.clientWidth + 1
    && panel.getBoundingClientRect().right <= document.documentElement.clientWidth;
  if (!fits) root.dataset.toolbar = 'narrow';
  else setMenu(false);
}

/** Open or close the Settings menu (narrow toolbar); `focusButton` puts the focus back on it. */
function setMenu(open, { focusButton = false } = {}) {
  const button = $('menu');
  button.setAttribute('aria-expanded', String(open));
  if (focusButton) button.focus();
}

const menuOpen = () => root.dataset.toolbar === 'narrow' && $('menu').getAttribute('aria-expanded') === 'true';

/** Code blocks wider than the column: a tab stop and a name (they scroll sideways). */
function markWideCode() {
  for (const pre of $('content').querySelectorAll('pre')) {
    const wide = pre.scrollWidth > pre.clientWidth + 1;
    if (wide === (pre.dataset.scrolls === 'true')) continue;
    if (wide) {
      pre.dataset.scrolls = 'true';
      pre.tabIndex = 0;
      pre.setAttribute('role', 'region');
      pre.setAttribute('aria-label', 'Code (scrolls sideways)');
    } else {
      for (const name of ['data-scrolls', 'tabindex', 'role', 'aria-label']) pre.removeAttribute(name);
    }
  }
}

function fitLayout() {
  fitToolbar();
  markWideCode();
}

// --- the payload ---------------------------------------------------------------------------
function storageArea() {
  return api.storage.session ?? api.storage.local;      // state.js falls back the same way
}

function isPayload(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    && (value.v === undefined || value.v === 1) && Array.isArray(value.tree);
}

async function loadPayload() {
  const tab = new URLSearchParams(location.search).get('tab');
  if (!/^\d{1,12}$/.test(tab || '')) return null;
  state.key = `reader:${tab}`;
  const item = (await storageArea().get(state.key))[state.key];
  return isPayload(item) ? item : null;
}

const str = (v) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');

function readingMinutes(payload) {
  if (Number.isInteger(payload.minutes) && payload.minutes > 0) return payload.minutes;
  const words = Number.isFinite(payload.words) && payload.words > 0 ? payload.words : 0;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/**
 * The published date in the page's language; the raw string when it does not parse.
 * Parsed: ISO 8601 (YYYY-MM-DD, with or without a time: shown as that day, no time-zone
 * shift) and RFC 2822 ("Fri, 01 Mar 2024 10:00:00 GMT"). Anything else is shown as given:
 * Date.parse alone would turn "Spring 2023" into January 1, 2023.
 */
function formatDate(raw, lang) {
  const format = (date, timeZone) => {
    const opts = { dateStyle: 'long', ...(timeZone ? { timeZone } : {}) };
    try {
      return new Intl.DateTimeFormat(lang || undefined, opts).format(date);
    } catch {
      return new Intl.DateTimeFormat(undefined, opts).format(date);
    }
  };
  const day = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(raw);
  if (day) {
    // The day the page states, whatever the time zone of the reader's machine.
    const date = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    if (date.getUTCDate() === Number(day[3])) return format(date, 'UTC');
  }
  const ms = RFC_2822.test(raw) ? Date.parse(raw) : Number.NaN;
  return Number.isNaN(ms) ? raw : format(new Date(ms));
}

function metaItems(payload, lang) {
  const items = [];
  const byline = str(payload.byline);
  if (byline) {
    const span = document.createElement('span');
    span.className = 'byline';
    span.textContent = byline;
    items.push(span);
  }
  const url = safePageUrl(payload.url);
  const site = str(payload.site) || (url ? new URL(url).hostname : '');
  if (site) {
    const el = document.createElement(url ? 'a' : 'span');
    el.className = 'site';
    el.textContent = site;
    if (url) {
      el.href = url;
      el.rel = 'noopener noreferrer';
      el.target = '_blank';
    }
    items.push(el);
  }
  const published = str(payload.published);
  if (published) {
    const time = document.createElement('time');
    time.className = 'published';
    time.dateTime = published;
    time.textContent = formatDate(published, lang);
    items.push(time);
  }
  const minutes = document.createElement('span');
  minutes.className = 'reading-time';
  minutes.textContent = `${readingMinutes(payload)} min read`;
  minutes.lang = 'en';
  items.push(minutes);
  return items;
}

function renderRemovedLinks() {
  const links = (state.payload && Array.isArray(state.payload.links) ? state.payload.links : [])
    .map((l) => ({ href: l && safeHref(l.href), text: l && str(l.text) }))
    .filter((l) => l.href);
  const list = $('removed-links-list');
  list.replaceChildren(...links.map(({ href, text }) => {
    const a = document.createElement('a');
    a.href = href;
    a.rel = 'noopener noreferrer';
    a.target = '_blank';
    a.textContent = text || href;
    const li = document.createElement('li');
    li.append(a);
    return li;
  }));
  const toggleWas = $('links-toggle').hidden;
  $('links-toggle').hidden = links.length === 0;
  $('removed-links').hidden = links.length === 0 || !state.prefs.removedLinks;
  if (toggleWas !== $('links-toggle').hidden) fitToolbar();
}

/** A line of the reader's own (English) help text, as a paragraph. */
function helpLine(text) {
  const p = document.createElement('p');
  p.className = 'help';
  p.lang = 'en';
  p.textContent = text;
  return p;
}

/**
 * The comment thread the host found under the post (payload.comments: {text, truncated}),
 * in the "Comments" section after the content, folded (a <details> left closed); hidden
 * when the page has none. Built from text only (commentParagraphs).
 */
function renderComments(payload) {
  const comments = payload && payload.comments;
  const text = comments && typeof comments.text === 'string' ? comments.text : '';
  const list = commentParagraphs(text);
  const section = $('comments');
  if (comments && comments.truncated === true && list.childNodes.length) {
    list.append(helpLine(THREAD_CUT));
  }
  $('comments-list').replaceChildren(list);
  section.open = false;
  section.hidden = !$('comments-list').childNodes.length;
}

function renderEmpty() {
  state.payload = null;
  root.dataset.state = 'empty';
  for (const el of [root, $('reader'), $('content')]) {
    el.lang = 'en';
    el.dir = 'ltr';
  }
  document.title = 'Pith reader';
  $('title').textContent = HELP[0];
  $('meta').replaceChildren();
  const p = document.createElement('p');
  p.className = 'help';
  p.id = 'help';
  p.textContent = HELP[1];
  $('content').replaceChildren(p);
  renderComments(null);
  renderRemovedLinks();
  for (const id of ['copy-md', 'save-md', 'save-html', 'print', 'narrate-open']) $(id).disabled = true;
}

function render(payload) {
  state.payload = payload;
  const lang = LANG.test(payload.lang || '') ? payload.lang : '';
  const dir = payload.dir === 'rtl' || payload.dir === 'ltr' ? payload.dir : 'auto';
  const { title, tree } = readerContent(payload);
  for (const el of [root, $('reader'), $('content')]) {
    if (lang) el.lang = lang; else el.removeAttribute('lang');
    el.dir = dir;
  }
  document.title = `${title} – Pith reader`;
  $('title').textContent = title;
  const items = metaItems(payload, lang);
  $('meta').replaceChildren(...items.flatMap((item, i) => {
    if (!i) return [item];
    const sep = document.createElement('span');
    sep.className = 'sep';
    sep.setAttribute('aria-hidden', 'true');
    sep.textContent = '·';
    return [sep, item];
  }));
  const content = renderTree(tree);
  if (!content.childNodes.length) {
    content.append(helpLine('The selected block has no text or images to show.'));
  }
  if (narration) narration.reset();
  $('content').replaceChildren(content);
  renderComments(payload);
  markWideCode();
  renderRemovedLinks();
  for (const id of ['copy-md', 'save-md', 'save-html', 'print', 'narrate-open']) $(id).disabled = false;
  say(payload.stats && payload.stats.truncated === true ? TRUNCATED : '');
  root.dataset.state = 'ready';
  if (!state.shownAt) state.shownAt = Date.now();
}

// --- preferences ---------------------------------------------------------------------------
function applyPrefs(prefs) {
  state.prefs = prefs;
  root.dataset.theme = prefs.theme;
  root.dataset.font = prefs.font;
  root.style.setProperty('--reader-size', `${prefs.size}px`);
  root.style.setProperty('--reader-width', `${prefs.width}em`);
  root.style.setProperty('--reader-line-height', String(prefs.lineHeight));
  for (const button of document.querySelectorAll('button.theme')) {
    button.setAttribute('aria-pressed', String(button.dataset.choice === prefs.theme));
  }
  $('font').value = prefs.font;
  $('width').value = String(prefs.width);
  $('line-height').value = String(prefs.lineHeight);
  $('smaller').disabled = prefs.size <= prefsStore.RANGES.size.min;
  $('larger').disabled = prefs.size >= prefsStore.RANGES.size.max;
  $('removed-links-pref').checked = prefs.removedLinks;
  if (narration) narration.applyPrefs(prefs);
  renderRemovedLinks();
  markWideCode();
}

async function change(changes) {
  applyPrefs(prefsStore.validate({ ...state.prefs, ...changes }));
  state.saving += 1;
  try {
    await prefsStore.save(changes);
  } catch (err) {
    say(`Could not save the setting: ${err && err.message ? err.message : err}`, { error: true });
  } finally {
    state.saving -= 1;
  }
}

/** A change from storage (the options page, another reader, or our own save coming back). */
function onSavedPrefs(prefs) {
  // While our own saves are under way their echoes would step the page back through older
  // values (A+ pressed three times: 21, 22, 23); the page already shows the newest.
  if (state.saving === 0) applyPrefs(prefs);
}

const larger = () => change({ size: prefsStore.nudge(state.prefs, 'size', 1).size });
const smaller = () => change({ size: prefsStore.nudge(state.prefs, 'size', -1).size });
const cycleTheme = () => change({ theme: prefsStore.nextTheme(state.prefs.theme) });

// --- export --------------------------------------------------------------------------------
/** The exports say what the page shows: the comment thread only while its section is
 * unfolded (host/NOTES.md, "Comments in the exports"). */
function buildHtml() {
  return exportHtml({ content: $('reader'), title: $('title').textContent, root,
    leaveOut: $('comments').open ? [] : ['#comments'] });
}

async function copyMarkdown() {
  try {
    await navigator.clipboard.writeText(globalThis.pithReader.markdown());
    say('Markdown copied to the clipboard.');
  } catch (err) {
    const why = err && err.message ? err.message : String(err);
    say(`Could not copy to the clipboard (${why}). Save Markdown works instead.`, { error: true });
  }
}

function saveMarkdown() {
  const name = fileName(state.payload, 'md');
  downloadText(globalThis.pithReader.markdown(), name, 'text/markdown;charset=utf-8');
  say(`Saved ${name}.`);
}

async function saveHtml() {
  const button = $('save-html');
  button.disabled = true;
  say('Preparing the HTML file…');
  try {
    const { html, images } = await buildHtml();
    const name = fileName(state.payload, 'html');
    downloadText(html, name, 'text/html;charset=utf-8');
    const total = images.inlined + images.kept;
    say(total ? `Saved ${name} (${images.inlined} of ${total} images inside the file).` : `Saved ${name}.`);
  } catch (err) {
    say(`Could not save the HTML file: ${err && err.message ? err.message : err}`, { error: true });
  } finally {
    button.disabled = !state.payload;
  }
}

// --- wiring --------------------------------------------------------------------------------
function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  const field = event.target instanceof Element && event.target.closest('input, select, textarea, [contenteditable]');
  if (event.key === 'Escape') {
    if (menuOpen()) setMenu(false, { focusButton: true });
    else if (document.activeElement && document.activeElement.closest('.toolbar')) document.activeElement.blur();
    else if (narration) narration.key(event);
    return;
  }
  if (field) return;
  // Space on a button, link or menu is that control's; elsewhere it is read aloud's.
  const control = event.target instanceof Element && event.target.closest('button, a[href], select, summary, [tabindex]');
  if (event.key === ' ' && !event.shiftKey && !control && state.payload) {
    event.preventDefault();
    const { key, shiftKey } = event;
    narrator().then((n) => n.key({ key, shiftKey }));
    return;
  }
  if (narration && narration.key(event)) {
    event.preventDefault();
    return;
  }
  const actions = { t: cycleTheme, T: cycleTheme, '+': larger, '=': larger, '-': smaller, '_': smaller };
  const action = Object.prototype.hasOwnProperty.call(actions, event.key) ? actions[event.key] : null;
  if (!action) return;
  event.preventDefault();
  action();
}

function wire() {
  $('menu').addEventListener('click', () => setMenu(!menuOpen()));
  // A click anywhere outside the toolbar closes the menu, as menus do.
  document.addEventListener('click', (e) => {
    if (menuOpen() && !(e.target instanceof Element && e.target.closest('.toolbar'))) setMenu(false);
  });
  window.addEventListener('resize', fitLayout);
  $('font').addEventListener('change', (e) => change({ font: e.target.value }));
  $('smaller').addEventListener('click', smaller);
  $('larger').addEventListener('click', larger);
  $('width').addEventListener('input', (e) => change({ width: Number(e.target.value) }));
  $('line-height').addEventListener('input', (e) => change({ lineHeight: Number(e.target.value) }));
  for (const button of document.querySelectorAll('button.theme')) {
    button.addEventListener('click', () => change({ theme: button.dataset.choice }));
  }
  $('removed-links-pref').addEventListener('change', (e) => change({ removedLinks: e.target.checked }));
  $('copy-md').addEventListener('click', copyMarkdown);
  $('save-md').addEventListener('click', saveMarkdown);
  $('save-html').addEventListener('click', saveHtml);
  $('print').addEventListener('click', () => window.print());
  document.addEventListener('keydown', onKey);
  $('narrate-open').addEventListener('click', () => narrator().then((n) => n.toggle()));
  prefsStore.watch(onSavedPrefs);
  // A new selection opened in the reader of the same tab replaces what this page shows.
  // A removal (the page's tab closed: state.js forgets it) leaves the text on screen.
  api.storage.onChanged.addListener((changes, area) => {
    const expected = api.storage.session ? 'session' : 'local';
    if (area !== expected || !state.key || !Object.prototype.hasOwnProperty.call(changes, state.key)) return;
    const value = changes[state.key].newValue;
    if (isPayload(value)) render(value);
  });
}

/** Read aloud, its module loaded and set up at the first call. */
function narrator() {
  narrationLoading = narrationLoading || import('./narrate.js').then(({ setupNarration }) => {
    narration = setupNarration({
      els: {
        root, title: $('title'), content: $('content'), open: $('narrate-open'), panel: $('narrate'),
        play: $('narrate-play'), prev: $('narrate-prev'), next: $('narrate-next'), stop: $('narrate-stop'),
        rate: $('narrate-rate'), voice: $('narrate-voice'),
        toolbarHeight: () => $('toolbar').getBoundingClientRect().bottom,
      },
      say,
      change,
      lang: () => (state.payload && LANG.test(state.payload.lang || '') ? state.payload.lang : ''),
    });
    narration.applyPrefs(state.prefs);
    return narration;
  });
  return narrationLoading;
}

async function main() {
  root.dataset.state = 'loading';
  wire();
  fitToolbar();
  applyPrefs(await prefsStore.load());
  let payload = null;
  try {
    payload = await loadPayload();
  } catch (err) {
    renderEmpty();
    root.dataset.state = 'error';
    say(`Could not read the selection: ${err && err.message ? err.message : err}`, { error: true });
    return;
  }
  if (payload) render(payload); else renderEmpty();
}

main();
