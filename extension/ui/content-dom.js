/* Pith reader content: the payload tree checked again against READER.md's allow-list, then built into DOM nodes.
 *
 * Defence in depth: the collector already sanitises, but the reader renders whatever is in
 * storage, so every tag and attribute is checked here again, by the same rules
 * (READER.md "Allowed tags" / "Allowed attributes"):
 *
 * - a tag on the never-kept list goes with its subtree; a layout container or a custom
 *   element becomes `div`; any other unknown tag is unwrapped (its children kept);
 * - only the allowed attributes of a tag are read (the allow-list is iterated, never the
 *   payload's keys), each through a validator; a value that fails is left out;
 * - `a` without a usable absolute http:/https:/mailto: href is unwrapped; `img` without a
 *   usable src (absolute http:/https:, or a data: image of a raster type of allowlist.json) is dropped;
 * - anything that is neither a string nor a {t} object is ignored; nesting deeper than
 *   MAX_DEPTH is cut;
 * - a `math` subtree is checked by math.js, an `svg` one by svg-figure.js, both against the
 *   allow-list every renderer shares (allowlist.js, generated from the host's
 *   allowlist.json); a formula is built as MathML, a figure as an <img> of the SVG
 *   document (it never runs, nor loads anything).
 *
 * `sanitizeTree` is pure (no DOM), so markdown.js converts exactly what the page shows.
 * `renderTree` builds nodes with createElement / createTextNode / setAttribute only (no
 * HTML parsing of strings anywhere) and adds the reader's own attributes: links open in a
 * new tab without referrer, images load lazily without referrer, wide tables scroll in a
 * wrapper. `splitTitle` and `withoutRepeatedByline` take out of the tree what the reader's
 * header already shows (the title heading, a byline line at the top).
 */

import ALLOW from './allowlist.js';
import { sanitizeMath } from './math.js';
import { sanitizeSvg, svgImage } from './svg-figure.js';

// Deeper than any real article; keeps a hostile payload from exhausting the stack.
export const MAX_DEPTH = 200;

export const BLOCK_TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'blockquote', 'pre', 'hr', 'ul', 'ol', 'li',
  'dl', 'dt', 'dd', 'figure', 'figcaption', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr',
  'th', 'td', 'details', 'summary',
]);
export const INLINE_TAGS = new Set([
  'a', 'em', 'strong', 'b', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'code',
  'kbd', 'samp', 'var', 'abbr', 'cite', 'q', 'time', 'br', 'img', 'span',
]);
const NEVER_KEPT = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed',
  'applet', 'form', 'input', 'button', 'select', 'textarea', 'option', 'canvas',
  'video', 'audio', 'source', 'track', 'map', 'area', 'nav', 'dialog', 'link', 'meta', 'base',
  'head', 'title',
]);
const LAYOUT = new Set(['section', 'article', 'main', 'header', 'footer', 'aside']);
const VOID = new Set(['br', 'hr', 'img']);

const URL_SCHEMES = new Set(['http:', 'https:']);
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
// Raster types only (allowlist.json): an SVG document reaches the page only as a figure
// svg-figure.js rebuilt, never as a page's data: URL.
const DATA_IMAGE = new RegExp(`^data:image/(?:${ALLOW.dataImageTypes.join('|')})[;,]`, 'i');
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const INTEGER = /^-?\d{1,9}$/;
const SIZE = /^\d{1,5}$/;
const SPAN = /^\d{1,4}$/;
const CODE_CLASS = /^(?:language|lang)-([\w+#.-]{1,40})$/;
const MAX_SPAN = 1000;

/** `value` as an absolute URL string when its scheme is in `schemes`, else null. */
function absoluteUrl(value, schemes) {
  if (typeof value !== 'string') return null;
  let url;
  try {
    url = new URL(value);          // no base: a relative URL throws
  } catch {
    return null;
  }
  return schemes.has(url.protocol) ? url.href : null;
}

/** An http(s) or mailto URL for a link, or null (the link is then unwrapped). */
export function safeHref(value) {
  return absoluteUrl(value, LINK_SCHEMES);
}

/** An http(s) URL or a raster data: image for an img, or null (the image is then dropped). */
export function safeImageSrc(value) {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (DATA_IMAGE.test(trimmed)) return trimmed;
  return absoluteUrl(trimmed, URL_SCHEMES);
}

/** An http(s) URL (the page URL in the header), or null. */
export function safePageUrl(value) {
  return absoluteUrl(value, URL_SCHEMES);
}

const str = (v) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);
const matching = (re) => (v) => { const s = str(v); return s !== null && re.test(s) ? s : null; };
const oneOf = (...words) => (v) => (words.includes(v) ? v : null);
const anyText = (v) => str(v);
const flag = (v) => (v === true || v === '' || typeof v === 'string' ? '' : null);
const span = (v) => {
  const s = str(v);
  return s !== null && SPAN.test(s) && Number(s) >= 1 && Number(s) <= MAX_SPAN ? String(Number(s)) : null;
};
const codeClass = (v) => {
  const s = str(v);
  if (s === null) return null;
  const tokens = s.split(/\s+/).map((tok) => CODE_CLASS.exec(tok)).filter(Boolean)
    .map((m) => `language-${m[1]}`);
  return tokens.length ? [...new Set(tokens)].join(' ') : null;
};

const GLOBAL_ATTRS = [['lang', matching(LANG)], ['dir', oneOf('ltr', 'rtl', 'auto')]];
const TAG_ATTRS = new Map([
  ['a', [['href', safeHref], ['title', anyText]]],
  ['img', [['src', safeImageSrc], ['alt', anyText], ['title', anyText],
    ['width', matching(SIZE)], ['height', matching(SIZE)]]],
  ['th', [['colspan', span], ['rowspan', span], ['scope', oneOf('row', 'col', 'rowgroup', 'colgroup')]]],
  ['td', [['colspan', span], ['rowspan', span]]],
  ['ol', [['start', matching(INTEGER)], ['reversed', flag], ['type', oneOf('1', 'a', 'A', 'i', 'I')]]],
  ['li', [['value', matching(INTEGER)]]],
  ['pre', [['class', codeClass]]],
  ['code', [['class', codeClass]]],
  ['time', [['datetime', anyText]]],
  ['abbr', [['title', anyText]]],
  ['details', [['open', flag]]],
]);

function cleanAttrs(tag, raw) {
  const out = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [name, check] of [...GLOBAL_ATTRS, ...(TAG_ATTRS.get(tag) || [])]) {
    if (!Object.prototype.hasOwnProperty.call(raw, name)) continue;
    const value = check(raw[name]);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** What happens to a payload tag: 'keep' (as `tag`), 'drop' (with its subtree) or 'unwrap'. */
function classify(rawTag) {
  if (typeof rawTag !== 'string') return ['drop'];
  const tag = rawTag.toLowerCase();
  if (BLOCK_TAGS.has(tag) || INLINE_TAGS.has(tag)) return ['keep', tag];
  if (tag === 'math' || tag === 'svg') return [tag];
  if (NEVER_KEPT.has(tag)) return ['drop'];
  if (LAYOUT.has(tag) || /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/.test(tag)) return ['keep', 'div'];
  return ['unwrap'];
}

function sanitizeInto(nodes, out, depth) {
  if (!Array.isArray(nodes) || depth > MAX_DEPTH) return;
  for (const node of nodes) {
    if (typeof node === 'string') {
      if (node) out.push(node);
      continue;
    }
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const [what, tag] = classify(node.t);
    if (what === 'drop') continue;
    if (what === 'math' || what === 'svg') {
      const kept = what === 'math' ? sanitizeMath(node) : sanitizeSvg(node);
      if (kept) out.push(kept);
      continue;
    }
    if (what === 'unwrap') {
      sanitizeInto(node.c, out, depth + 1);
      continue;
    }
    const a = cleanAttrs(tag, node.a);
    const c = [];
    if (!VOID.has(tag)) sanitizeInto(node.c, c, depth + 1);
    if (tag === 'a' && !a.href) {                  // not a usable link: keep its text
      out.push(...c);
      continue;
    }
    if (tag === 'img' && !a.src) continue;          // no usable source: no image
    out.push({ t: tag, a, c });
  }
}

/** A new tree holding only allowed tags and attributes ({t, a, c} with a and c always present). */
export function sanitizeTree(tree) {
  const out = [];
  sanitizeInto(tree, out, 0);
  return out;
}

/** The text of a (clean) node or list, whitespace collapsed and trimmed. */
export function textOf(node) {
  const parts = [];
  const walk = (n) => {
    if (typeof n === 'string') parts.push(n);
    else if (Array.isArray(n)) n.forEach(walk);
    else if (n && n.t === 'img') parts.push(n.a.alt || '');
    else if (n && (n.t === 'svg' || n.t === 'annotation')) parts.push('');
    else if (n && n.t === 'br') parts.push(' ');
    else if (n && Array.isArray(n.c)) n.c.forEach(walk);
  };
  walk(node);
  return parts.join('').replace(/[ \t\n\r\f]+/g, ' ').trim();
}

const sameText = (a, b) => a.normalize('NFKC').toLowerCase() === b.normalize('NFKC').toLowerCase();

/** Index path of the first h1/h2 (document order) that `accept(text)` accepts, or null. */
function findHeading(tree, accept) {
  const walk = (nodes, path) => {
    for (let i = 0; i < nodes.length; i += 1) {
      const n = nodes[i];
      if (typeof n === 'string') continue;
      if ((n.t === 'h1' || n.t === 'h2') && accept(textOf(n))) return [...path, i];
      const found = walk(n.c, [...path, i]);
      if (found) return found;
    }
    return null;
  };
  return walk(tree, []);
}

function withoutPath(nodes, path) {
  const [i, ...rest] = path;
  if (!rest.length) return nodes.filter((_, k) => k !== i);
  return nodes.map((n, k) => (k === i ? { ...n, c: withoutPath(n.c, rest) } : n));
}

/**
 * The title to show and the tree without the heading that repeats it.
 * `title` is the payload's title; when it is empty, the first h1/h2 with text gives it.
 * The first h1/h2 whose text equals the title (whitespace collapsed, case and Unicode
 * compatibility forms ignored) is left out of the tree, since the header shows it.
 */
export function splitTitle(title, cleanTree) {
  let shown = typeof title === 'string' ? title.replace(/\s+/g, ' ').trim() : '';
  const path = shown
    ? findHeading(cleanTree, (text) => sameText(text, shown))
    : findHeading(cleanTree, (text) => text !== '');
  if (!path) return { title: shown, tree: cleanTree };
  if (!shown) {
    let node = { c: cleanTree };
    for (const i of path) node = node.c[i];
    shown = textOf(node);
  }
  return { title: shown, tree: withoutPath(cleanTree, path) };
}

// A byline line is a name or two and a date; a longer text at the top is the article itself.
export const MAX_BYLINE_LINE = 160;
// A byline sits at the top: only the first few blocks of text are looked at.
export const BYLINE_LOOKAHEAD = 3;
// What may follow the name on a byline line for it to count as a date: this long at most,
// with a digit, and a month name or a numeric date (see `isDateText`).
const MAX_DATE_TEXT = 40;
const NUMERIC_DATE = /\d{1,4}[./-]\d{1,2}(?:[./-]\d{1,4})?/;
const ENGLISH_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const folded = (s) => s.normalize('NFKC').toLowerCase().replace(/[ \t\n\r\f]+/g, ' ').trim();

/** Month names (long and short) in English and in `lang`, folded. */
function monthNames(lang) {
  const names = new Set(ENGLISH_MONTHS);
  for (const month of ['long', 'short']) {
    let format;
    try {
      format = new Intl.DateTimeFormat(lang || 'en', { month, timeZone: 'UTC' });
    } catch {
      format = new Intl.DateTimeFormat('en', { month, timeZone: 'UTC' });
    }
    for (let m = 0; m < 12; m += 1) names.add(folded(format.format(new Date(Date.UTC(2024, m, 15)))).replace(/\.$/, ''));
  }
  return names;
}

/** True when `text` (folded) reads as a date: "1 march 2024", "updated 3 mar", "2024-03-01". */
function isDateText(text, months) {
  if (!text || text.length > MAX_DATE_TEXT || !/\d/.test(text)) return false;
  if (NUMERIC_DATE.test(text)) return true;
  return text.split(/[^\p{L}]+/u).some((word) => word.length >= 3 && [...months].some((m) => word.startsWith(m)));
}

/** Index paths of the first `limit` text blocks (block elements holding no other block), in document order. */
function leadingTextBlocks(tree, limit) {
  const found = [];
  const walk = (nodes, path) => {
    for (let i = 0; i < nodes.length && found.length < limit; i += 1) {
      const n = nodes[i];
      if (typeof n === 'string' || !BLOCK_TAGS.has(n.t)) continue;
      if (n.t === 'table' || n.t === 'figure' || n.t === 'pre') {   // content: the text has begun
        found.push(null);
        continue;
      }
      const inner = n.c.some((c) => typeof c !== 'string' && BLOCK_TAGS.has(c.t));
      if (inner) walk(n.c, [...path, i]);
      else if (textOf(n) !== '') found.push([...path, i]);
    }
  };
  walk(tree, []);
  const end = found.indexOf(null);
  return end < 0 ? found : found.slice(0, end);
}

/** The first `time` of `node` (clean), or null. */
function firstTime(node) {
  if (typeof node === 'string') return null;
  if (node.t === 'time') return node;
  for (const c of node.c) {
    const t = firstTime(c);
    if (t) return t;
  }
  return null;
}

/**
 * The tree without a byline line at its top that repeats the header's byline (and date):
 * among the first BYLINE_LOOKAHEAD text blocks, the first one shorter than MAX_BYLINE_LINE
 * whose text is `byline` (a leading "By " ignored), or `byline` followed by a date when
 * the header shows a `published` date, or a lone `time` of the published day.
 * Anything else on the line (a role, an affiliation) keeps the line.
 */
export function withoutRepeatedByline(cleanTree, byline, published, lang = '') {
  const want = folded(typeof byline === 'string' ? byline : '').replace(/^by /, '');
  const dated = typeof published === 'string' && published.trim() !== '';
  const day = dated ? (/^\d{4}-\d{2}-\d{2}/.exec(published.trim()) || [''])[0] : '';
  if (!want && !day) return cleanTree;
  let months = null;
  for (const path of leadingTextBlocks(cleanTree, BYLINE_LOOKAHEAD)) {
    let node = { c: cleanTree };
    for (const i of path) node = node.c[i];
    const text = folded(textOf(node));
    if (text.length > MAX_BYLINE_LINE) break;
    const time = firstTime(node);
    const timeDay = time && typeof time.a.datetime === 'string' ? time.a.datetime.trim().slice(0, 10) : '';
    const lone = time !== null && folded(textOf(time)) === text;
    if (lone && day && timeDay === day) return withoutPath(cleanTree, path);
    const rest = text.replace(/^by /, '');
    if (!want || !rest.startsWith(want)) continue;
    const tail = rest.slice(want.length).replace(/^[\s,;:|·•–—-]+/u, '').replace(/[\s.]+$/, '');
    if (tail === '') return withoutPath(cleanTree, path);
    if (!dated) continue;
    months = months || monthNames(lang);
    if ((day && timeDay === day && folded(textOf(time)) === tail) || isDateText(tail, months)) {
      return withoutPath(cleanTree, path);
    }
  }
  return cleanTree;
}

/** A clean formula as MathML elements. */
function mathElement(doc, node) {
  if (typeof node === 'string') return doc.createTextNode(node);
  const el = doc.createElementNS(MATHML_NS, node.t);
  for (const [name, value] of Object.entries(node.a)) el.setAttribute(name, value);
  for (const child of node.c) el.append(mathElement(doc, child));
  return el;
}

function element(doc, node, figCap) {
  if (node.t === 'math') return mathElement(doc, node);
  if (node.t === 'svg') return element(doc, svgImage(node, figCap), figCap);
  const el = doc.createElement(node.t);
  for (const [name, value] of Object.entries(node.a)) el.setAttribute(name, value);
  switch (node.t) {
    case 'a':
      el.setAttribute('rel', 'noopener noreferrer');
      el.setAttribute('target', '_blank');
      break;
    case 'img':
      el.setAttribute('loading', 'lazy');
      el.setAttribute('decoding', 'async');
      el.setAttribute('referrerpolicy', 'no-referrer');
      break;
    default:
      break;
  }
  const figCaption = node.t === 'figure' ? figureCaption(node) : figCap;
  for (const child of node.c) el.append(build(doc, child, figCaption));
  if (node.t !== 'table') return el;
  // A table wider than the column scrolls inside this focusable region, not the page.
  const wrap = doc.createElement('div');
  wrap.className = 'table-scroll';
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('tabindex', '0');
  const caption = node.c.find((n) => typeof n !== 'string' && n.t === 'caption');
  wrap.setAttribute('aria-label', (caption && textOf(caption)) || 'Table');
  wrap.append(el);
  return wrap;
}

function build(doc, node, caption = '') {
  return typeof node === 'string' ? doc.createTextNode(node) : element(doc, node, caption);
}

/** The text of a (clean) figure's figcaption, or '' (the alt text of an SVG figure in it). */
export function figureCaption(figure) {
  const cap = figure.c.find((n) => typeof n !== 'string' && n.t === 'figcaption');
  return cap ? textOf(cap) : '';
}

/** A DocumentFragment of `tree`, sanitised here whatever its origin (sanitising is idempotent). */
export function renderTree(tree, doc = globalThis.document) {
  const frag = doc.createDocumentFragment();
  for (const node of sanitizeTree(tree)) frag.append(build(doc, node));
  return frag;
}

// The comments' text the reader shows at most (the host sends up to 60,000 characters).
export const MAX_COMMENT_CHARS = 60_000;

// Said after a thread the host cut (comments.truncated), in the reader and its exports.
export const THREAD_CUT = 'The thread is longer: the rest is on the page.';

/** The paragraphs of a comment thread's plain text (the host's `comments.text`: blocks
 * separated by blank lines), trimmed, empty ones left out; [] for a non-string. */
export function commentTexts(text) {
  if (typeof text !== 'string') return [];
  return text.slice(0, MAX_COMMENT_CHARS).split(/\n\s*\n/).map((para) => para.trim()).filter(Boolean);
}

/**
 * The paragraphs of a comment thread's plain text (commentTexts) as `p` elements built
 * with textContent, in a DocumentFragment; an empty fragment for anything that is not a string.
 */
export function commentParagraphs(text, doc = globalThis.document) {
  const frag = doc.createDocumentFragment();
  for (const line of commentTexts(text)) {
    const p = doc.createElement('p');
    p.textContent = line;
    frag.append(p);
  }
  return frag;
}
