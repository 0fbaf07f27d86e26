/* Pith reader export: the content payload as CommonMark/GFM Markdown (a pure function of the payload, no DOM).
 *
 * The tree goes through content-dom.js's sanitizeTree, splitTitle and withoutRepeatedByline
 * first (readerContent), so the Markdown says exactly what the reader page shows. Output:
 *
 *   # Title
 *
 *   byline · site · 2024-03-01 · <https://the.page/url>
 *
 *   …the content…
 *
 * Rules (chosen for readable, deterministic output; one trailing newline):
 * - Whitespace outside `pre` collapses as HTML collapses it; each line is trimmed.
 * - Line break `br`: a backslash at the end of the line ("\" + newline), the CommonMark
 *   hard break that survives editors stripping trailing spaces. Several `br` in a row make
 *   one break; a `br` at the start or end of a paragraph is dropped; inside headings and
 *   table cells a `br` is a space.
 * - Escaping (pragmatic): in text, backslash, backtick, * [ ] ~ are always escaped; _ unless it
 *   sits between two letters or digits (snake_case stays readable); `!` only right before a
 *   link's `[`; `|` only inside tables. At the start of a paragraph line: `#` heading
 *   markers, `-`/`+` bullets, `1.`/`1)` numbers, `>` and setext underlines (`===`, `---`)
 *   are escaped. Other characters are left alone, except `<` and `&`:
 * - HTML, autolinks and entities: a `<` or `&` is judged over its whole text node, and what
 *   lies beyond the node counts as unknown: the next inline element may hold the rest of a
 *   tag name (`&lt;<span>img …&gt;</span>` is one `<img …>` once joined). So `<` is escaped
 *   unless whitespace follows it in its node (prose's `a < b` stays bare; `<img`, `</`, `<!`,
 *   `<?`, `<1@x.y>` and a `<` ending its node are escaped), and `&` is escaped when the rest
 *   of its node could make an entity (`&amp;`, `&#60;`, a bare `&` or `&am` ending the node).
 *   Escaping at the join instead would need every token to say whether it is text; this
 *   rule holds by itself, costs a backslash only where a node ends in `<` or `&x`, and the
 *   test corpus tests/fixtures/markdown-split-tags.json checks it with a CommonMark parser.
 *   Image alts and link titles are escaped the same way; in a link destination a `\` and an
 *   `&` that would read as an entity are backslash-escaped.
 * - Emphasis: strong/b `**x**`, em/i `*x*`, s/del `~~x~~`; whitespace at the edges moves
 *   outside the markers; the same emphasis nested inside itself is not repeated. Inline
 *   code/kbd/samp use a backtick run longer than any inside (padded with a space when the
 *   code starts or ends with a backtick). q becomes "…"; other inline tags keep only text.
 * - Code blocks are fenced with backticks, at least three and longer than any run inside,
 *   the info string from the `language-*` class of pre or its code.
 * - Lists: `-` bullets; ordered lists number from `start` (counting down when reversed,
 *   `li value` resets the count; Markdown renderers only honour the first number);
 *   continuation lines are indented to the marker width. An item is tight (no blank lines)
 *   unless it holds more than one block besides nested lists, or a paragraph followed by an
 *   ordered list not starting at 1 (which CommonMark would otherwise read as text). A list
 *   right after a list of the same kind uses `*` / `1)` so the two stay two lists.
 * - dl: each term a bold paragraph, definitions as paragraphs; details: the summary as a
 *   paragraph, then the content.
 * - Tables: GFM pipe tables; the header row is the first row (thead first); a table
 *   without headers still uses its first row. colspan/rowspan leave empty cells so the
 *   columns line up; cell content is flattened to one line. The caption comes first as an
 *   italic line. Figures: each image, then the caption as an italic line.
 * - Links `[text](href "title")`, images `![alt](src "title")`; a destination with spaces
 *   or parentheses is written `<…>`; a link without text becomes `<href>`.
 * - Published date: the `YYYY-MM-DD` the page gives (no time-zone conversion), else the
 *   raw string. The source URL (http(s) only) is an autolink.
 * - Formulas (math.js): `$tex$` inline, a displayed one a block of its own `$$` / tex / `$$`
 *   splitting its paragraph (in a table cell, heading, link or emphasis: `$$tex$$`); the TeX is the page's source when it gave one, else rebuilt
 *   from the MathML. An SVG figure is an image whose destination is the data: URL of the
 *   rebuilt SVG document (svg-figure.js), its title or the figure's caption as alt.
 * - With {comments: true} (the reader's Comments section unfolded) and a thread in the
 *   payload, a section "## Comments" after the content: one paragraph per paragraph of
 *   `comments.text`, each on one line and escaped as text (no links, lists or headings),
 *   "The thread is longer…" last when the host cut it. `pith extract -f markdown
 *   --comments` writes the same shape (host/NOTES.md, "Comments in the exports").
 * - With {removedLinks: true} and links in the payload, a last section
 *   "## Links removed from this block" lists them (http(s)/mailto only).
 */
import {
  BLOCK_TAGS, THREAD_CUT, commentTexts, figureCaption, safeHref, safePageUrl, sanitizeTree, splitTitle,
  withoutRepeatedByline,
} from './content-dom.js';
import { formulaMarkdown, formulaTex, isDisplayed } from './math.js';
import { svgImage } from './svg-figure.js';

const SP = Object.freeze({ k: 'space' });
const BR = Object.freeze({ k: 'break' });
const isGap = (tok) => tok === SP || tok === BR;
const WS = /[ \t\n\r\f]+/;
const ALNUM = /[\p{L}\p{N}]/u;
const LINKS_HEADING = 'Links removed from this block';
const COMMENTS_HEADING = 'Comments';
const MAX_FILE_NAME = 80;

// --- text -----------------------------------------------------------------------------
// `<` unless whitespace follows in the node; `&` when the rest of the node may make an entity.
const ESCAPED = /[\\`*[\]~_|]|<(?![ \t\n\r\f])|&(?=#?[xX]?[0-9A-Za-z]*(?:;|$))/g;
// An `&` that reads as an entity inside a link destination or title (one token: no split).
const ENTITY_AMP = /&(?=#?[xX]?[0-9A-Za-z]+;)/g;

function escapeText(chunk, ctx) {
  return chunk.replace(ESCAPED, (ch, at, whole) => {
    if (ch === '|') return ctx.table ? '\\|' : '|';
    if (ch === '_') {
      const prev = Array.from(whole.slice(Math.max(0, at - 2), at)).pop() || '';
      const next = Array.from(whole.slice(at + 1, at + 3))[0] || '';
      if (ALNUM.test(prev) && ALNUM.test(next)) return '_';
    }
    return `\\${ch}`;
  });
}

/** A text node's tokens: escaped as a whole (what follows a `<` or `&` in it counts), then
 * split at whitespace (escaping adds none). */
function textTokens(text, ctx) {
  const out = [];
  escapeText(text, ctx).split(WS).forEach((part, i) => {
    if (i) out.push(SP);
    if (part) out.push(part);
  });
  return out;
}

/** Line-start escapes of a paragraph line (see the rules at the top). */
function escapeLineStart(line) {
  return line
    .replace(/^(#{1,6})(?=\s|$)/, '\\$1')
    .replace(/^([-+])(?=\s|$)/, '\\$1')
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
    .replace(/^>/, '\\>')
    .replace(/^(=+|-+)(\s*)$/, '\\$1$2');
}

// --- inline ---------------------------------------------------------------------------
function rawText(nodes, brAs = ' ') {
  let out = '';
  for (const n of nodes) {
    if (typeof n === 'string') out += n;
    else if (n.t === 'br') out += brAs;
    else if (n.t !== 'img') out += rawText(n.c, brAs);
  }
  return out;
}

/** Leading and trailing gaps of `tokens` moved outside `open … close`. */
function wrapTokens(tokens, open, close = open) {
  let i = 0;
  let j = tokens.length;
  while (i < j && isGap(tokens[i])) i += 1;
  while (j > i && isGap(tokens[j - 1])) j -= 1;
  if (i === j) return tokens;
  return [...tokens.slice(0, i), open, ...tokens.slice(i, j), close, ...tokens.slice(j)];
}

function codeSpan(nodes, ctx) {
  const text = rawText(nodes).replace(/[ \t\n\r\f]+/g, ' ');
  const inner = text.trim();
  if (!inner) return text ? [SP] : [];
  const longest = Math.max(0, ...(inner.match(/`+/g) || []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = inner.startsWith('`') || inner.endsWith('`') ? ' ' : '';
  const body = ctx.table ? inner.replace(/\|/g, '\\|') : inner;
  const out = [`${fence}${pad}${body}${pad}${fence}`];
  if (text.startsWith(' ')) out.unshift(SP);
  if (text.endsWith(' ')) out.push(SP);
  return out;
}

function destination(url, ctx) {
  let dest = url.replace(/\\/g, '\\\\').replace(ENTITY_AMP, '\\&');
  if (ctx.table) dest = dest.replace(/\|/g, '%7C');
  if (/[\s()<>]/.test(dest)) dest = `<${dest.replace(/</g, '%3C').replace(/>/g, '%3E')}>`;
  return dest;
}

function titlePart(title) {
  if (!title) return '';
  const t = title.replace(/[ \t\n\r\f]+/g, ' ').trim();
  return t ? ` "${t.replace(/[\\"]/g, '\\$&').replace(ENTITY_AMP, '\\&')}"` : '';
}

function imageToken(node, ctx) {
  // The alt is inline content to a Markdown reader: escaped as text (an `<img` in it would be HTML).
  const alt = escapeText((node.a.alt || '').replace(/[ \t\n\r\f]+/g, ' ').trim(), ctx);
  return `![${alt}](${destination(node.a.src, ctx)}${titlePart(node.a.title)})`;
}

/** `<href>`, or `[href](<href>)` when the URL holds what would end an autolink early. */
function autolink(href, ctx) {
  if (!/[\s<>]/.test(href) && !(ctx.table && href.includes('|'))) return `<${href}>`;
  return `[${escapeText(href, ctx)}](${destination(href, ctx)})`;
}

function linkTokens(node, ctx) {
  const inner = inline(node.c, { ...ctx, link: true });
  if (ctx.link) return inner;                               // no links inside links
  if (!inner.some((tok) => !isGap(tok))) return [...inner, autolink(node.a.href, ctx)];
  return wrapTokens(inner, '[', `](${destination(node.a.href, ctx)}${titlePart(node.a.title)})`);
}

function emphasis(node, ctx, key, mark) {
  const inner = inline(node.c, { ...ctx, [key]: true });
  return ctx[key] ? inner : wrapTokens(inner, mark);
}

function inlineNode(node, ctx) {
  if (typeof node === 'string') return textTokens(node, ctx);
  switch (node.t) {
    case 'br': return [ctx.table || ctx.heading ? SP : BR];
    case 'img': return [imageToken(node, ctx)];
    case 'svg': return [imageToken(svgImage(node, ctx.caption || ''), ctx)];
    case 'math': {
      if (isDisplayed(node) && !(ctx.table || ctx.heading || ctx.link || ctx.em || ctx.strong || ctx.strike)) {
        const tex = formulaTex(node);                 // a block of its own (paragraph splits there)
        return tex ? [{ k: 'formula', md: `$$\n${tex}\n$$` }] : [];
      }
      const md = formulaMarkdown(node);
      return md ? [ctx.table ? md.replace(/\|/g, '\\|') : md] : [];
    }
    case 'a': return linkTokens(node, ctx);
    case 'strong': case 'b': return emphasis(node, ctx, 'strong', '**');
    case 'em': case 'i': return emphasis(node, ctx, 'em', '*');
    case 's': case 'del': return emphasis(node, ctx, 'strike', '~~');
    case 'code': case 'kbd': case 'samp': return codeSpan(node.c, ctx);
    case 'q': return wrapTokens(inline(node.c, ctx), '"');
    case 'hr': return [SP];
    default:
      // Other inline tags keep their text; a block inside inline content is flattened.
      return BLOCK_TAGS.has(node.t) ? [SP, ...inline(node.c, ctx), SP] : inline(node.c, ctx);
  }
}

function inline(nodes, ctx) {
  return nodes.flatMap((n) => inlineNode(n, ctx));
}

/** Tokens to text: gaps collapse to one space or one line break; lines are trimmed. */
function joinTokens(tokens) {
  let out = '';
  let space = false;
  let lineStart = true;
  let pendingBreak = false;
  for (const tok of tokens) {
    if (tok === SP) { space = true; continue; }
    if (tok === BR) { pendingBreak = !lineStart || pendingBreak; continue; }
    if (pendingBreak) {
      out += '\\\n';
      lineStart = true;
    } else if (space && !lineStart) {
      out += ' ';
    }
    if (tok.startsWith('[') && out.endsWith('!') && !out.endsWith('\\!')) out = `${out.slice(0, -1)}\\!`;
    out += tok;
    space = false;
    pendingBreak = false;
    lineStart = false;
  }
  return out;
}

/** A paragraph's Markdown; a displayed formula in it stands as a block of its own between the text before and after it. */
function paragraph(nodes, ctx, wrapWith = '') {
  let tokens = inline(nodes, ctx);
  if (wrapWith) tokens = wrapTokens(tokens, wrapWith);
  const parts = [];
  let run = [];
  const done = () => {
    const text = joinTokens(run);
    if (text) parts.push(text.split('\n').map(escapeLineStart).join('\n'));
    run = [];
  };
  for (const tok of tokens) {
    if (tok && tok.k === 'formula') {
      done();
      parts.push(tok.md);
    } else {
      run.push(tok);
    }
  }
  done();
  return parts.join('\n\n');
}

// --- blocks ---------------------------------------------------------------------------
function heading(node, ctx) {
  const text = joinTokens(inline(node.c, { ...ctx, heading: true })).replace(/(\s)(#+)$/, '$1\\$2');
  return text ? `${'#'.repeat(Number(node.t[1]))} ${text}` : '';
}

function codeBlock(node) {
  const code = node.c.find((n) => typeof n !== 'string' && n.t === 'code');
  const cls = node.a.class || (code && code.a.class) || '';
  const lang = (/(?:^|\s)language-(\S+)/.exec(cls) || [])[1] || '';
  let body = rawText(node.c, '\n').replace(/\r\n?/g, '\n');
  if (body.endsWith('\n')) body = body.slice(0, -1);
  if (!body.trim()) return '';
  const longest = Math.max(0, ...(body.match(/`+/g) || []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${body}\n${fence}`;
}

function indentRest(text, indent) {
  return text.split('\n').map((line, i) => (i === 0 || !line ? line : indent + line)).join('\n');
}

/** The items of a list: each li, with stray children (a nested list directly in ul) joined to the item before. */
function listItems(node) {
  const items = [];
  for (const child of node.c) {
    if (typeof child !== 'string' && child.t === 'li') items.push({ a: child.a, c: [...child.c] });
    else if (items.length) items[items.length - 1].c.push(child);
    else if (typeof child !== 'string' || child.trim()) items.push({ a: {}, c: [child] });
  }
  return items;
}

/**
 * A list as Markdown: {md, first} (first: the number of the first item, null for ul).
 * `alt` switches to the other marker ("*" or "1)"), so that a list right after another
 * list of the same kind starts a new list instead of continuing that one.
 */
function list(node, ctx, alt = false) {
  const ordered = node.t === 'ol';
  const items = listItems(node);
  const reversed = ordered && node.a.reversed !== undefined;
  let n = ordered && node.a.start !== undefined ? Number(node.a.start) : reversed ? items.length : 1;
  const step = reversed ? -1 : 1;
  let first = null;
  let loose = false;
  const rendered = items.map((item) => {
    if (item.a.value !== undefined) n = Number(item.a.value);
    const number = Math.max(0, n);
    if (ordered && first === null) first = number;
    const marker = ordered ? `${number}${alt ? ')' : '.'}` : alt ? '*' : '-';
    n += step;
    const inner = blocks(item.c, ctx);
    // Tight unless two blocks besides lists, or an ordered list not starting at 1 after a
    // paragraph (CommonMark would read it as that paragraph's text).
    const tight = inner.filter((b) => b.kind !== 'list').length <= 1
      && !inner.some((b, i) => i > 0 && b.kind === 'list' && b.first !== null && b.first !== 1);
    loose = loose || !tight;
    const body = inner.map((b) => b.md).join(tight ? '\n' : '\n\n');
    return body ? `${marker} ${indentRest(body, ' '.repeat(marker.length + 1))}` : marker;
  });
  return { md: rendered.join(loose ? '\n\n' : '\n'), first: ordered ? first ?? 1 : null };
}

function tableRows(table) {
  const head = [];
  const body = [];
  const foot = [];
  for (const part of table.c) {
    if (typeof part === 'string') continue;
    if (part.t === 'tr') body.push(part);
    const into = part.t === 'thead' ? head : part.t === 'tfoot' ? foot : part.t === 'tbody' ? body : null;
    if (into) into.push(...part.c.filter((r) => typeof r !== 'string' && r.t === 'tr'));
  }
  return [...head, ...body, ...foot];
}

function cellText(cell, ctx) {
  return joinTokens(inline(cell.c, { ...ctx, table: true }));
}

function table(node, ctx) {
  const grid = [];
  const pending = [];                  // per column: rows still covered by a rowspan above
  for (const row of tableRows(node)) {
    const cells = [];
    let col = 0;
    const skipCovered = () => {
      while (pending[col] > 0) { cells[col] = ''; pending[col] -= 1; col += 1; }
    };
    for (const cell of row.c) {
      if (typeof cell === 'string' || (cell.t !== 'th' && cell.t !== 'td')) continue;
      skipCovered();
      const across = Number(cell.a.colspan || 1);
      const down = Number(cell.a.rowspan || 1);
      cells[col] = cellText(cell, ctx);
      for (let k = 0; k < across; k += 1) {
        if (k) cells[col + k] = '';
        pending[col + k] = down - 1;
      }
      col += across;
    }
    for (let k = col; k < pending.length; k += 1) {
      if (pending[k] > 0) { cells[k] = ''; pending[k] -= 1; }
    }
    if (cells.length) grid.push(Array.from(cells, (c) => c ?? ''));
  }
  const parts = [];
  const caption = node.c.find((n) => typeof n !== 'string' && n.t === 'caption');
  if (caption) {
    const text = paragraph(caption.c, { ...ctx, em: true }, '*');
    if (text) parts.push(text);
  }
  if (grid.length) {
    const width = Math.max(...grid.map((r) => r.length));
    const line = (r) => `| ${Array.from({ length: width }, (_, k) => r[k] ?? '').join(' | ')} |`;
    const rows = [line(grid[0]), `|${' --- |'.repeat(width)}`, ...grid.slice(1).map(line)];
    parts.push(rows.join('\n'));
  }
  return parts.join('\n\n');
}

function blockquote(node, ctx) {
  const inner = blocks(node.c, ctx).map((b) => b.md).join('\n\n');
  return inner ? inner.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n') : '';
}

function blockNode(node, ctx) {
  switch (node.t) {
    case 'p': case 'summary': return [{ kind: 'p', md: paragraph(node.c, ctx) }];
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return [{ kind: 'h', md: heading(node, ctx) }];
    case 'pre': return [{ kind: 'pre', md: codeBlock(node) }];
    case 'hr': return [{ kind: 'hr', md: '---' }];
    case 'blockquote': return [{ kind: 'quote', md: blockquote(node, ctx) }];
    case 'table': return [{ kind: 'table', md: table(node, ctx) }];
    case 'dt': return [{ kind: 'p', md: paragraph(node.c, { ...ctx, strong: true }, '**') }];
    case 'figure': return blocks(node.c, { ...ctx, caption: figureCaption(node) });
    case 'figcaption': case 'caption':
      return [{ kind: 'p', md: paragraph(node.c, { ...ctx, em: true }, '*') }];
    default: return blocks(node.c, ctx);    // div, figure, details, dl, dd, li, rows, cells (lists: in blocks)
  }
}

/** Blocks of `nodes`: runs of text and inline elements become paragraphs. */
function blocks(nodes, ctx) {
  const out = [];
  let run = [];
  const flush = () => {
    const md = run.length ? paragraph(run, ctx) : '';
    if (md) out.push({ kind: 'p', md });
    run = [];
  };
  for (const node of nodes) {
    if (typeof node === 'string' || !BLOCK_TAGS.has(node.t)) {
      run.push(node);
      continue;
    }
    flush();
    if (node.t === 'ul' || node.t === 'ol') {
      const last = out[out.length - 1];
      const ordered = node.t === 'ol';
      const alt = Boolean(last && last.kind === 'list' && last.ordered === ordered && !last.alt);
      const { md, first } = list(node, ctx, alt);
      out.push({ kind: 'list', ordered, alt, first, md });
    } else {
      out.push(...blockNode(node, ctx).filter((b) => b.md));
    }
  }
  flush();
  return out.filter((b) => b.md);
}

// --- the document ---------------------------------------------------------------------
/** The published date as the Markdown shows it: the page's YYYY-MM-DD, else the raw string. */
export function markdownDate(published) {
  if (typeof published !== 'string') return '';
  const raw = published.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(raw);
  return iso ? iso[1] : raw;
}

const plain = (s) => (typeof s === 'string' ? s.replace(/[ \t\n\r\f]+/g, ' ').trim() : '');
const inlineText = (s) => joinTokens(textTokens(plain(s), {}));

function metadataLine(payload) {
  const items = [plain(payload.byline), plain(payload.site), markdownDate(payload.published)]
    .filter(Boolean).map(inlineText);
  const url = safePageUrl(payload.url);
  if (url) items.push(autolink(url, {}));
  return items.length ? escapeLineStart(items.join(' · ')) : '';
}

function removedLinks(links) {
  const items = (Array.isArray(links) ? links : []).flatMap((link) => {
    const href = link && safeHref(link.href);
    if (!href) return [];
    const text = inlineText(link.text);
    return [text ? `- [${text}](${destination(href, {})})` : `- ${autolink(href, {})}`];
  });
  return items.length ? `## ${LINKS_HEADING}\n\n${items.join('\n')}` : '';
}

function commentsSection(comments) {
  const paras = commentTexts(comments && comments.text);
  if (!paras.length) return '';
  if (comments.truncated === true) paras.push(THREAD_CUT);
  return [`## ${COMMENTS_HEADING}`, ...paras.map((p) => escapeLineStart(inlineText(p)))].join('\n\n');
}

/** The title the reader shows and the tree it shows under it (sanitised; the title heading
 * and a byline line repeating the header's left out). */
export function readerContent(payload) {
  const p = payload && typeof payload === 'object' ? payload : {};
  const { title, tree } = splitTitle(p.title, sanitizeTree(p.tree));
  return { title: title || 'Untitled', tree: withoutRepeatedByline(tree, p.byline, p.published, p.lang) };
}

/** The payload as Markdown; `comments` adds the "Comments" section (the thread apart),
 * `removedLinks` the "Links removed from this block" section. */
export function toMarkdown(payload, { removedLinks: withLinks = false, comments = false } = {}) {
  const { title, tree } = readerContent(payload);
  const parts = [`# ${inlineText(title)}`, metadataLine(payload || {})];
  parts.push(...blocks(tree, {}).map((b) => b.md));
  if (comments) parts.push(commentsSection(payload && payload.comments));
  if (withLinks) parts.push(removedLinks(payload && payload.links));
  return `${parts.filter(Boolean).join('\n\n').replace(/\n+$/, '')}\n`;
}

/** A file name for the payload: its title, without characters file systems or people trip on, ≤ 80 characters with `.ext`. */
export function fileName(payload, ext = '') {
  const clean = String(ext).replace(/^\.+/, '').replace(/[^A-Za-z0-9]/g, '').slice(0, 10);
  const suffix = clean ? `.${clean}` : '';
  const { title } = readerContent(payload);
  let base = title.normalize('NFC')
    // control, bidi-override and zero-width characters; characters Windows forbids
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/[\\/:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  base = Array.from(base).slice(0, MAX_FILE_NAME - suffix.length).join('').replace(/[\s.]+$/, '');
  if (!base) base = 'Pith reader';
  if (/^(?:con|prn|aux|nul|com\d|lpt\d)$/i.test(base)) base = `${base}_`;
  return base + suffix;
}
