/* Pith reader export: one self-contained HTML file of the reader (header and article, CSS inlined, images inlined when allowed) and downloads of a string as a file.
 *
 * The file must open anywhere, offline, without running anything:
 * - no script at all; a CSP meta (EXPORT_CSP) forbids scripts, frames, forms and every
 *   load except images and the inline <style>;
 * - the reader's own stylesheet (reader.css, read through document.styleSheets, rules of
 *   other themes left out) and the current size/width/line-height are inlined in <style>;
 * - images become data: URIs when they can be fetched; an image that cannot keeps its
 *   absolute http(s) URL (the file then needs the network for it, as the page did).
 *
 * Decision on images: the extension has no host permissions, so fetch() from the reader
 * page only succeeds when the image's server allows CORS (or the URL is data:/blob:). We
 * try each image once (IMAGE_CONCURRENCY at a time, credentials omitted, no referrer),
 * within IMAGE_TIMEOUT_MS each and EXPORT_BUDGET_MS in all, accepting only raster types
 * READER.md allows (png, gif, jpeg, webp, avif) up to MAX_IMAGE_BYTES. Anything else —
 * CORS refusal, timeout, error status, wrong type, too big — leaves the URL as it is. Saving
 * never fails because of an image, and never waits more than the budget.
 *
 * The HTML is written by serializeHtml from our own DOM (built by content-dom.js from the
 * sanitised tree): element and attribute names come from that DOM, text and attribute
 * values are escaped. No string is ever parsed as HTML here.
 */

/** The CSP of the saved file. */
export const EXPORT_CSP = "default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'";
// One slow image must not hold the file up; a page full of them must not either.
export const IMAGE_TIMEOUT_MS = 5000;
export const EXPORT_BUDGET_MS = 15000;
// Larger images stay links: a saved article should stay a reasonable size.
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
// Parallel fetches: enough to be quick, few enough not to hammer one server.
export const IMAGE_CONCURRENCY = 4;
// Object URLs of downloads are released after this long (the download has started by then).
const REVOKE_AFTER_MS = 60000;

const IMAGE_TYPE = /^image\/(?:png|gif|jpeg|webp|avif)$/;
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta',
  'source', 'track', 'wbr']);

const escapeText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/\u00a0/g, '&nbsp;');
const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\u00a0/g, '&nbsp;');

/** HTML text of `node` (an element, text node or fragment of our own DOM); comments are left out. */
export function serializeHtml(node) {
  if (node.nodeType === Node.TEXT_NODE) return escapeText(node.data);
  if (node.nodeType === Node.DOCUMENT_FRAGMENT_NODE) {
    return [...node.childNodes].map(serializeHtml).join('');
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const name = node.localName;
  const attrs = [...node.attributes].map((a) => ` ${a.name}="${escapeAttr(a.value)}"`).join('');
  if (VOID.has(name)) return `<${name}${attrs}>`;
  let inner = [...node.childNodes].map(serializeHtml).join('');
  // The HTML parser drops a newline right after <pre>; write one more so the text survives.
  if (name === 'pre' && inner.startsWith('\n')) inner = `\n${inner}`;
  return `<${name}${attrs}>${inner}</${name}>`;
}

const THEME_SELECTOR = /\[data-theme=["']?([\w-]+)["']?\]/g;
const NOT_EXPORTED = /\.toolbar|#status|\.narrate|data-narrating|::highlight/;   // the page's controls (and read aloud's marks) are not in the file

function ruleText(rule, theme) {
  if (rule instanceof CSSMediaRule) {
    const inner = [...rule.cssRules].map((r) => ruleText(r, theme)).filter(Boolean);
    return inner.length ? `@media ${rule.media.mediaText} {\n${inner.join('\n')}\n}` : '';
  }
  const text = rule.cssText;
  for (const m of text.matchAll(THEME_SELECTOR)) if (m[1] !== theme) return '';
  return NOT_EXPORTED.test(rule.selectorText || '') ? '' : text;
}

/** The rules of the reader's stylesheet for `theme` as CSS text (other themes' and the toolbar's left out). */
export function readerCss(doc, theme) {
  const out = [];
  for (const sheet of doc.styleSheets) {
    if (!sheet.href || !/\/reader\.css$/.test(new URL(sheet.href).pathname)) continue;
    for (const rule of sheet.cssRules) out.push(ruleText(rule, theme));
  }
  return out.filter(Boolean).join('\n');
}

function readAsDataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/** `src` as a data: URI, or null when it cannot be had (see the decision at the top). */
async function fetchAsDataUrl(src, timeoutMs) {
  if (timeoutMs <= 0) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(src, {
      mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer', signal: controller.signal,
    });
    if (!res.ok) return null;
    const type = (res.headers.get('content-type') || '').split(';')[0].trim().toLowerCase();
    const length = Number(res.headers.get('content-length') || 0);
    if (!IMAGE_TYPE.test(type) || length > MAX_IMAGE_BYTES) return null;
    const blob = await res.blob();
    if (blob.size > MAX_IMAGE_BYTES) return null;
    const url = await readAsDataUrl(new Blob([blob], { type }));
    return typeof url === 'string' && url.startsWith(`data:${type};base64,`) ? url : null;
  } catch {
    return null;                      // CORS refusal, network error, abort
  } finally {
    clearTimeout(timer);
  }
}

/** Replace the http(s) sources of the images under `root` by data: URIs where possible; {inlined, kept}. */
export async function inlineImages(root, { budgetMs = EXPORT_BUDGET_MS, timeoutMs = IMAGE_TIMEOUT_MS } = {}) {
  const deadline = Date.now() + budgetMs;
  const images = [...root.querySelectorAll('img')].filter((img) => /^https?:/i.test(img.getAttribute('src') || ''));
  let inlined = 0;
  let next = 0;
  const worker = async () => {
    while (next < images.length) {
      const img = images[next];
      next += 1;
      const url = await fetchAsDataUrl(img.getAttribute('src'), Math.min(timeoutMs, deadline - Date.now()));
      if (url) {
        img.setAttribute('src', url);
        inlined += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IMAGE_CONCURRENCY, images.length) }, worker));
  return { inlined, kept: images.length - inlined };
}

/**
 * The saved file: `content` (an element of our DOM, cloned here) in a page of its own.
 * `root` gives lang, dir, data-theme, data-font and the reader's custom properties;
 * `leaveOut`, selectors of parts of `content` left out of the file (besides [hidden] ones).
 */
export async function exportHtml({ doc = globalThis.document, content, title, root, options, leaveOut = [] } = {}) {
  const clone = content.cloneNode(true);
  for (const hidden of clone.querySelectorAll(['[hidden]', ...leaveOut].join(', '))) hidden.remove();
  const images = await inlineImages(clone, options);
  const attr = (name) => (root.hasAttribute(name) ? ` ${name}="${escapeAttr(root.getAttribute(name))}"` : '');
  // After the sheet, so the person's size, width and line height win over its defaults.
  const vars = root.style.cssText ? `\n:root { ${root.style.cssText} }` : '';
  const css = `${readerCss(doc, root.getAttribute('data-theme'))}${vars}`.replace(/<\/style/gi, '<\\/style');
  const html = [
    '<!DOCTYPE html>',
    `<html${attr('lang')}${attr('dir')}${attr('data-theme')}${attr('data-font')}>`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(EXPORT_CSP)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="Pith reader">',
    `<title>${escapeText(title)}</title>`,
    `<style>\n${css}\n</style>`,
    '</head>',
    '<body>',
    serializeHtml(clone),
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { html, images };
}

/** Download `text` as the file `filename` (an <a download> on a blob: URL). */
export function downloadText(text, filename, type = 'text/plain;charset=utf-8', doc = globalThis.document) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
