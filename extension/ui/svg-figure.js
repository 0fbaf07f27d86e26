/* Pith reader figures: an inline SVG rebuilt from the shared allow-list and shown as an <img> of an SVG document, which never runs script nor loads anything.
 *
 * A payload node {t: 'svg', a, c} (the collector copies the page's inline <svg> and the SVG
 * of a `data:image/svg+xml` image into this form) keeps only the SVG elements and attributes
 * of allowlist.json: no `script`, no `style`, no `foreignObject`, no `image`, no `a`, no
 * event attribute, no `style` attribute; `href` / `xlink:href` only as a reference to an
 * element of the same figure (`#id`), paint only as a colour or `url(#id)`. What is left is
 * serialised to XML text by hand (names from the list, values and text escaped) and put in a
 * `data:image/svg+xml;base64,` URL: an image document in both browsers runs no script and
 * fetches no resource even if something slipped through, and the reader's CSP allows data:
 * images. The alt text is the figure's own `<title>`, else the caption of the `figure` it
 * sits in, else "Figure".
 */
import ALLOW from './allowlist.js';

const S = ALLOW.svg;
const ELEMENTS = new Map(S.elements.map((name) => [name.toLowerCase(), name]));
const ATTRS = new Map(S.attributes.map((name) => [name.toLowerCase(), name]));
const VALUE = new RegExp(S.value);
const REF = new RegExp(S.ref);
const LOCAL_REF = new Set(S.localRef);
export const SVG_NS = 'http://www.w3.org/2000/svg';
// Deeper than any chart's groups; a hostile payload must not exhaust the stack.
export const MAX_SVG_DEPTH = 60;
// An SVG without a size is drawn at the browser's default replaced size (300×150); the
// viewBox gives the intrinsic ratio, and this caps the width the img asks for.
const MAX_SIZE = 4000;

function cleanAttrs(raw) {
  const out = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) continue;
    const v = String(value);
    if (v.length > S.maxValueChars) continue;
    if (LOCAL_REF.has(key)) {
      if (REF.test(v.trim())) out.href = v.trim();
      continue;
    }
    const name = ATTRS.get(key.toLowerCase());
    if (name && VALUE.test(v)) out[name] = v;
  }
  return out;
}

function clean(node, depth) {
  if (typeof node === 'string') return node;
  if (node === null || typeof node !== 'object' || Array.isArray(node) || depth > MAX_SVG_DEPTH) return null;
  const name = typeof node.t === 'string' ? ELEMENTS.get(node.t.toLowerCase()) : undefined;
  if (!name || (name === 'svg' && depth > 0)) return null;
  const c = [];
  if (Array.isArray(node.c)) {
    for (const child of node.c) {
      const kept = clean(child, depth + 1);
      if (kept !== null && kept !== '') c.push(kept);
    }
  }
  return { t: name, a: cleanAttrs(node.a), c };
}

/** A clean figure ({t: 'svg', a, c}) from a payload node, or null when it draws nothing. */
export function sanitizeSvg(node) {
  const out = clean(node, 0);
  return out && out.t === 'svg' && out.c.some((k) => typeof k !== 'string') ? out : null;
}

const escapeXml = (s) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]);

function xml(node) {
  if (typeof node === 'string') return escapeXml(node);
  const attrs = Object.entries(node.a).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
  const ns = node.t === 'svg' ? ` xmlns="${SVG_NS}"` : '';
  return `<${node.t}${ns}${attrs}>${node.c.map(xml).join('')}</${node.t}>`;
}

/** The clean figure as an SVG document's text. */
export function svgText(svg) {
  return xml(svg);
}

function base64(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The clean figure as a data: URL of an SVG document. */
export function svgDataUrl(svg) {
  return `data:image/svg+xml;base64,${base64(svgText(svg))}`;
}

const textIn = (node) => (typeof node === 'string' ? node : node.c.map(textIn).join(''));

/** The figure's alt text: its <title>, else `caption`, else "Figure". */
export function svgAlt(svg, caption = '') {
  const title = svg.c.find((k) => typeof k !== 'string' && k.t === 'title');
  const text = (title ? textIn(title) : '').replace(/\s+/g, ' ').trim();
  return text || caption || 'Figure';
}

/** [width, height] (CSS px) the img asks for: the svg's own size, else its viewBox's; null when neither. */
export function svgSize(svg) {
  const num = (v) => (typeof v === 'string' && /^\s*\d+(?:\.\d+)?(?:px)?\s*$/.test(v) ? parseFloat(v) : null);
  let w = num(svg.a.width);
  let h = num(svg.a.height);
  const box = typeof svg.a.viewBox === 'string' ? svg.a.viewBox.trim().split(/[\s,]+/).map(Number) : [];
  if ((w === null || h === null) && box.length === 4 && box[2] > 0 && box[3] > 0) {
    if (w === null && h === null) [w, h] = [box[2], box[3]];
    else if (w === null) w = (h * box[2]) / box[3];
    else h = (w * box[3]) / box[2];
  }
  if (!(w > 0 && h > 0)) return null;
  const scale = Math.min(1, MAX_SIZE / w);
  return [Math.round(w * scale), Math.round(h * scale)];
}

/** The payload-free img node content-dom renders for a clean figure: {t: 'img', a: {src, alt, width?, height?}, c: []}. */
export function svgImage(svg, caption = '') {
  const a = { src: svgDataUrl(svg), alt: svgAlt(svg, caption) };
  const size = svgSize(svg);
  if (size) [a.width, a.height] = size.map(String);
  return { t: 'img', a, c: [] };
}
