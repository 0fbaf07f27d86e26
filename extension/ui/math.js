/* Pith reader mathematics: a formula's MathML checked against the shared allow-list, and its TeX (the page's source, else rebuilt from the MathML).
 *
 * A formula reaches the reader as a payload node {t: 'math', a: {display?, alttext?},
 * c: [MathML nodes]} (the collector turns KaTeX's and MathJax's output back into the MathML
 * they carry; READER.md "Mathematics"). The TeX the page was written in, when the page
 * gives it, travels the MathML way: `semantics` holding the presentation and an
 * `annotation encoding="application/x-tex"`.
 *
 * `sanitizeMath` keeps only the MathML elements and attributes of allowlist.json (shared
 * with the CLI, host/pith/pipeline/allowlist.json): anything else inside a formula goes with
 * its subtree (an `annotation-xml` could hold HTML, `maction` is interactive, `mglyph`
 * loads an image), every attribute value must match the list's value pattern (no markup,
 * no `url(`, no `:`), text is text. It is pure, like content-dom's sanitizeTree.
 *
 * `formulaTex` is what the Markdown export writes between `$…$` / `$$…$$`: the x-tex
 * annotation when there is one, else a TeX rebuilt from the presentation MathML by
 * `mathmlTex` (host/pith/pipeline/math.py does the same from a snapshot's rows; the two are
 * held equal by tests/test_math.py's fixtures).
 */
import ALLOW from './allowlist.js';

const M = ALLOW.mathml;
const ELEMENTS = new Set(M.elements);
const VALUE = new RegExp(M.value);
const FREE = new Set(M.freeText);
const ATTRS = new Map(M.elements.map((tag) => [tag, [...M.global, ...(M.attributes[tag] || [])]]));
const TEX_MO = M.tex.mo;
const TEX_MI = M.tex.mi;
const FUNCTIONS = new Set(M.tex.functions);
// Deeper than any typeset formula; a hostile payload must not exhaust the stack.
export const MAX_MATH_DEPTH = 60;

const str = (v) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

function cleanAttrs(tag, raw) {
  const out = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const name of ATTRS.get(tag)) {
    if (!Object.prototype.hasOwnProperty.call(raw, name)) continue;
    const value = str(raw[name]);
    if (value === null) continue;
    if (FREE.has(name) ? value.length <= M.maxTextChars : VALUE.test(value)) out[name] = value;
  }
  return out;
}

function clean(node, depth) {
  if (typeof node === 'string') return node;
  if (node === null || typeof node !== 'object' || Array.isArray(node) || depth > MAX_MATH_DEPTH) return null;
  const tag = typeof node.t === 'string' ? node.t.toLowerCase() : '';
  if (!ELEMENTS.has(tag) || (tag === 'math' && depth > 0)) return null;
  const c = [];
  if (Array.isArray(node.c)) {
    for (const child of node.c) {
      const kept = clean(child, depth + 1);
      if (kept !== null && kept !== '') c.push(kept);
    }
  }
  return { t: tag, a: cleanAttrs(tag, node.a), c };
}

/** A clean formula node ({t: 'math', a, c}) from a payload node, or null when nothing of it may stay. */
export function sanitizeMath(node) {
  const out = clean(node, 0);
  return out && out.t === 'math' && out.c.length ? out : null;
}

/** True when the (clean) formula is displayed as a block. */
export const isDisplayed = (math) => math.a.display === 'block';

const textIn = (node) => (typeof node === 'string' ? node
  : Array.isArray(node.c) ? node.c.map(textIn).join('') : '');

/** The page's TeX of a clean formula (its x-tex annotation), or ''. */
export function sourceTex(math) {
  for (const child of math.c) {
    if (typeof child === 'string' || child.t !== 'semantics') continue;
    for (const part of child.c) {
      if (typeof part !== 'string' && part.t === 'annotation' && part.a.encoding === M.texEncoding) {
        return textIn(part).trim();
      }
    }
  }
  return '';
}

const elementsOf = (node) => node.c.filter((n) => typeof n !== 'string');
const isWord = (s) => /^(?:[A-Za-z0-9]|\\[A-Za-z]+)$/.test(s);
const base = (s) => (isWord(s) ? s : `{${s}}`);

function token(node) {
  const text = textIn(node).replace(/\s+/g, ' ').trim();
  switch (node.t) {
    case 'mi':
      if (Object.prototype.hasOwnProperty.call(TEX_MI, text)) return TEX_MI[text];
      if (FUNCTIONS.has(text)) return `\\${text}`;
      return [...text].length > 1 ? `\\mathrm{${text}}` : text;
    case 'mo':
      return Object.prototype.hasOwnProperty.call(TEX_MO, text) ? TEX_MO[text] : text;
    case 'mn':
      return text;
    case 'ms':
      return `\\text{"${text}"}`;
    default:                                    // mtext
      return text ? `\\text{${text}}` : '';
  }
}

/** TeX of a clean MathML node (the common presentation elements; others give their parts in a row). */
export function mathmlTex(node) {
  if (typeof node === 'string') return '';
  const kids = elementsOf(node);
  const t = (k) => (kids[k] ? mathmlTex(kids[k]) : '');
  switch (node.t) {
    case 'mi': case 'mo': case 'mn': case 'ms': case 'mtext': return token(node);
    case 'mspace': case 'annotation': case 'none': case 'mprescripts': return '';
    case 'semantics': return t(0);
    case 'msup': return `${base(t(0))}^{${t(1)}}`;
    case 'msub': return `${base(t(0))}_{${t(1)}}`;
    case 'msubsup': case 'munderover': return `${base(t(0))}_{${t(1)}}^{${t(2)}}`;
    case 'munder': return `${base(t(0))}_{${t(1)}}`;
    case 'mover': return `\\overset{${t(1)}}{${t(0)}}`;
    case 'mfrac': return `\\frac{${t(0)}}{${t(1)}}`;
    case 'msqrt': return `\\sqrt{${row(kids)}}`;
    case 'mroot': return `\\sqrt[${t(1)}]{${t(0)}}`;
    case 'mtable':
      return `\\begin{matrix}${kids.map((tr) => elementsOf(tr).map((td) => row(elementsOf(td))).join(' & ')).join(' \\\\ ')}\\end{matrix}`;
    default: return row(kids);              // math mrow mstyle mpadded mphantom merror menclose …
  }
}

function row(kids) {
  return kids.map(mathmlTex).filter((s) => s !== '').join(' ');
}

/** The TeX the Markdown export writes for a clean formula: the page's source, else rebuilt. */
export function formulaTex(math) {
  return (sourceTex(math) || mathmlTex(math)).replace(/\s+/g, ' ').trim();
}

/** The formula as Markdown: `$tex$` inline, `$$tex$$` displayed ('' when it has no TeX at all). */
export function formulaMarkdown(math) {
  const tex = formulaTex(math);
  if (!tex) return '';
  return isDisplayed(math) ? `$$${tex}$$` : `$${tex}$`;
}
