/* Pith collect: copy the selected block out of the live page as the reader's sanitised content payload (extension/READER.md).
 *
 * A classic script injected with scripting.executeScript into the extension's isolated
 * world after capture.js ran there. It installs globalThis.__pith.collect(spec) and
 * returns nothing; running it again installs the same function again (it keeps no state).
 * The background then calls
 *
 *   __pith.collect({node, drop: [rows], links: [{text, href}], quiet: [rows]})
 *     → {ok: true, payload}            payload = READER.md "Content payload (version 1)"
 *     → {ok: false, reason: "…"}       the row is not an element still in the document
 *
 * where rows index __pith.nodes (the elements of the last capture). `quiet` rows keep
 * their element children but lose their own text: the text nodes that are their children
 * in the flat tree (what capture.js records as the row's text and its children's tails;
 * a slot's are the text nodes assigned to it). The collector only
 * reads the page: no node is created, moved or changed, nothing is parsed as HTML, and
 * DOM accessors are taken from the prototypes (DOM clobbering, see capture.js).
 *
 * The walk is iterative (an explicit stack of frames, one per open element) over the flat
 * tree: an open shadow root replaces its host's light children, a <slot> yields its
 * assigned nodes (flattened). Every element is either
 *   dropped with its subtree  never-kept tags, `drop` rows, hidden elements (the `hidden`
 *                             attribute, aria-hidden="true", display:none,
 *                             visibility:hidden|collapse), images without a usable source;
 *   emitted                   an allowed tag (or an alias of one) with its allowed attributes;
 *   unwrapped                 its children go to its parent: slots, links with an unsafe
 *                             href, unknown elements rendered inline.
 * Layout containers, custom elements and unknown elements rendered as blocks become `div`;
 * a `span` rendered as a block becomes `div` too, so `display:block` spans used as
 * paragraphs do not run their words together.
 *
 * `hidden="until-found"` is not hidden: it is collapsed text the browser's find reveals
 * (folded sections), i.e. content.
 *
 * The root itself is emitted only when it is content on its own (p, h1–h6, pre, ul, ol,
 * dl, table, blockquote, figure, details, hr, an inline element); a container (div, a
 * layout element, a custom element), a part of a larger structure (li, dt, dd, tr, td, th,
 * thead, tbody, tfoot, caption, figcaption, summary) or a form, nav or dialog (a page
 * wrapped in a <form>) contributes its children; other never-kept roots give an empty tree.
 * A root is collected even if hidden or in `drop`: the reader chose it.
 *
 * Text is copied as the page has it (adjacent strings merged); outside pre/code,
 * whitespace-only strings at the edges of a block or next to a block child are left out,
 * the ones between inline elements are kept so words stay apart.
 *
 * The page's title, byline, site and date are not the collector's: the host computes them
 * once for every output (host/pith/pipeline/metadata, the `metadata` of its `clean` reply) and the
 * background puts them in the payload. The collector adds what only the live block knows:
 *   lang, dir  the closest [lang] of the block, else <html lang>; the block's computed direction.
 *
 * Words (for the reading time): each Han, Hiragana, Katakana or Hangul character is one
 * word; any other run of letters, digits and combining marks is one word (marks, so that
 * Devanagari vowel signs do not split words), runs joined by an apostrophe (don't,
 * l'eau) included. Counted per text node. Scripts written without spaces and not listed
 * (Thai, Lao, Khmer, Burmese) are undercounted: a run is one word.
 */
(function pithCollect() {
  'use strict';

  var PAYLOAD_VERSION = 1;          // READER.md "Content payload (version 1)"
  // Brysbaert (2019), "How many words do we read per minute?", J. Memory and Language 109:
  // the average silent reading rate of adults for non-fiction is 238 words per minute.
  var WORDS_PER_MINUTE = 238;
  // Chrome hands executeScript results and storage values through V8ValueConverter, which
  // stops at 100 nested levels and silently turns deeper values into null (measured). A tree
  // level costs two (the node object and its `c` array) and the payload's wrappers about
  // five, so elements nested deeper than this are flattened into their ancestor at the cap.
  var MAX_DEPTH = 40;
  // Blink's HTML parser never nests deeper than 512 (kMaximumHTMLParserDOMTreeDepth); only a
  // script builds deeper trees, Chromium's renderer dies of them at about 10,000 levels, and
  // computing the style of nodes that deep costs time in proportion to the depth: below
  // this many levels under the selected element the subtree is skipped.
  var MAX_WALK_DEPTH = 512;
  // Twenty thousand elements is a book chapter with every word formatted; more is a page
  // no reader view helps with, and it bounds the payload's size and the renderer's work.
  var MAX_ELEMENTS = 20000;
  // Elements looked at, kept or not: bounds the work on pages of endless unwrapped or
  // hidden markup.
  var MAX_VISITED = 200000;
  // Text and attribute characters in the payload: about 170,000 words, longer than any
  // article, and at three UTF-8 bytes a character still well inside storage.session's
  // 10 MB quota (the background refuses payloads over 8 M characters of JSON).
  var MAX_CHARS = 2000000;
  // A data: image source larger than this is an embedded photo that would crowd the
  // payload; the image is kept only if another source exists.
  var MAX_DATA_URI_CHARS = 262144;
  // http(s) and mailto URLs longer than this are tracking or broken; servers refuse them.
  var MAX_URL_CHARS = 8192;
  // alt, title and datetime values longer than this are not labels but pasted text.
  var MAX_ATTR_CHARS = 1000;
  // READER.md: a data: URI under 200 bytes is a placeholder when another source exists.
  var PLACEHOLDER_DATA_URI_CHARS = 200;
  // The removed-links retainer lists the links of the dropped rows; thousands are a link farm.
  var MAX_LINKS = 2000;
  // An inline SVG smaller than this on either side (CSS px) is an icon (a share button's
  // logo, an arrow), not a figure: 48 px is twice the usual 24 px icon grid.
  var MIN_FIGURE_PX = 48;
  // SVG path data and point lists of a detailed chart run long; other attribute values are labels.
  var MAX_GEOMETRY_CHARS = 200000;
  // Inside a formula or a figure: never copied (the reader's allow-list, ui/allowlist.js,
  // decides the rest; these go here already because they run, load or embed markup).
  var FOREIGN_DROP = set('script style foreignobject iframe image a annotation-xml maction mglyph');
  var TEX_TYPE = /^\s*math\/tex/i;

  function set(words) {
    var o = Object.create(null), list = words.split(' ');
    for (var i = 0; i < list.length; i++) o[list[i]] = true;
    return o;
  }

  var BLOCK = set('p h1 h2 h3 h4 h5 h6 div blockquote pre hr ul ol li dl dt dd figure figcaption ' +
    'table caption thead tbody tfoot tr th td details summary');
  var INLINE = set('a em strong b i u s del ins mark small sub sup code kbd samp var abbr cite q ' +
    'time br img span');
  var NEVER_KEPT = set('script style noscript template iframe frame frameset object embed applet ' +
    'input button select textarea option canvas video audio source track map area ' +
    'nav dialog link meta base head title ' +
    // not in READER.md's list but of the same kind (form parts, embedded documents)
    'optgroup datalist param portal fencedframe');
  // A form is a container too (READER.md): some sites wrap the whole page in one; the host's
  // `clean` lists the forms that are clutter in `drop`.
  var LAYOUT = set('section article main header footer aside body html form');
  // Obsolete or rare tags that mean an allowed one.
  var ALIAS = { strike: 's', menu: 'ul', dir: 'ul', listing: 'pre', xmp: 'pre', plaintext: 'pre' };
  // Table column markup and word-break hints carry no content of their own.
  var SILENT = set('col colgroup wbr');
  var VOID = set('br hr img');
  // Never-kept tags that still hold content when the reader chose them as the block.
  var CONTAINER_ROOTS = set('nav dialog');
  // A root of these tags means nothing outside its parent: the root gives its children.
  var ROOT_CONTENTS = set('div span li dt dd tr td th thead tbody tfoot caption figcaption summary');
  // Emptied by the sanitiser (ad slots, icon links), an element says nothing, attributes or
  // not: it is left out, except table cells and list items (structure even when empty)
  // and void elements (empty by nature).
  var KEEP_EMPTY = set('br hr img td th tr li dt dd');
  var LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];
  var LINK_SCHEMES = { 'http:': true, 'https:': true, 'mailto:': true };
  var IMAGE_SCHEMES = { 'http:': true, 'https:': true };
  var DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp|avif)[;,]/i;
  var LANG_RE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
  var DIRS = { ltr: true, rtl: true, auto: true };
  var INTEGER_RE = /^-?\d{1,9}$/;
  var SIZE_RE = /^\d{1,5}$/;
  var SPAN_RE = /^\d{1,4}$/, MAX_SPAN = 1000;        // HTML clamps colspan at 1000
  var CODE_CLASS_RE = /^(?:language|lang)-([\w+#.-]{1,40})$/;
  var OL_TYPES = { '1': true, a: true, A: true, i: true, I: true };
  var SCOPES = { row: true, col: true, rowgroup: true, colgroup: true };
  var WS_ONLY = /^[ \t\n\r\f]*$/;                    // HTML whitespace; a no-break space is content
  var BLOCK_DISPLAY = /^(?:block|flex|grid|flow-root|list-item|table)/;

  var CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
  var LETTER = '(?:(?![' + CJK + '])[\\p{L}\\p{N}\\p{M}])';
  var WORD_RE = new RegExp('[' + CJK + ']|' + LETTER + '+(?:[\'\u2019]' + LETTER + '+)*', 'gu');

  // DOM accessors from the prototypes (a <form> or the document can shadow them by name).
  function getter(proto, prop) {
    return Object.getOwnPropertyDescriptor(proto, prop).get;
  }
  var getAttr = Element.prototype.getAttribute;
  var hasAttr = Element.prototype.hasAttribute;
  var elQuery = Element.prototype.querySelector;
  var docQuery = Document.prototype.querySelector;
  var closestOf = Element.prototype.closest;
  var localNameOf = getter(Element.prototype, 'localName');
  var shadowRootOf = getter(Element.prototype, 'shadowRoot');
  var nodeTypeOf = getter(Node.prototype, 'nodeType');
  var firstChildOf = getter(Node.prototype, 'firstChild');
  var nextSiblingOf = getter(Node.prototype, 'nextSibling');
  var parentElementOf = getter(Node.prototype, 'parentElement');
  var isConnectedOf = getter(Node.prototype, 'isConnected');
  var baseURIOf = getter(Node.prototype, 'baseURI');
  var textContentOf = getter(Node.prototype, 'textContent');
  var dataOf = getter(CharacterData.prototype, 'data');
  var documentElementOf = getter(Document.prototype, 'documentElement');
  var assignedNodesOf = HTMLSlotElement.prototype.assignedNodes;
  var styleOf = window.getComputedStyle.bind(window);
  var rectOf = Element.prototype.getBoundingClientRect;
  var attrListOf = getter(Element.prototype, 'attributes');

  function attr(el, name) {
    return getAttr.call(el, name);
  }

  function nameOf(el) {
    return String(localNameOf.call(el)).toLowerCase();
  }

  function collapse(s) {
    return String(s).replace(/\s+/g, ' ').trim();
  }

  function countWords(s) {
    var m = s.match(WORD_RE);
    return m === null ? 0 : m.length;
  }

  function isHidden(el, cs) {
    var h = attr(el, 'hidden');
    if (h !== null && h.trim().toLowerCase() !== 'until-found') return true;  // until-found is findable text
    var aria = attr(el, 'aria-hidden');
    if (aria !== null && aria.trim().toLowerCase() === 'true') return true;
    if (cs === null) return false;
    var vis = cs.visibility;
    return cs.display === 'none' || vis === 'hidden' || vis === 'collapse';
  }

  // --- URLs -----------------------------------------------------------------------------

  /** Absolute URL of `raw` against `el`'s base when its scheme is in `schemes`, else ''. */
  function absolute(raw, el, schemes) {
    if (raw === null) return '';
    raw = raw.trim();
    if (raw === '') return '';
    try {
      var u = new URL(raw, baseURIOf.call(el));
      if (schemes[u.protocol] !== true || u.href.length > MAX_URL_CHARS) return '';
      return u.href;
    } catch (e) {
      return '';
    }
  }

  function imageUrl(raw, el) {
    if (raw === null) return '';
    raw = raw.trim();
    if (/^data:/i.test(raw)) return DATA_IMAGE.test(raw) && raw.length <= MAX_DATA_URI_CHARS ? raw : '';
    return absolute(raw, el, IMAGE_SCHEMES);
  }

  /** The URL of the largest candidate of a srcset value (by w, else by x), or null. */
  function largestOfSrcset(value) {
    if (value === null) return null;
    var s = value, n = s.length, pos = 0, best = null, bestW = -1, bestX = -1;
    while (pos < n) {
      while (pos < n && /[\s,]/.test(s.charAt(pos))) pos++;
      if (pos >= n) break;
      var start = pos;
      while (pos < n && !/\s/.test(s.charAt(pos))) pos++;
      var url = s.slice(start, pos), desc = '';
      if (/,$/.test(url)) {
        url = url.replace(/,+$/, '');
      } else {
        start = pos;
        var paren = false;
        while (pos < n) {
          var ch = s.charAt(pos);
          if (ch === '(') paren = true;
          else if (ch === ')') paren = false;
          else if (ch === ',' && !paren) break;
          pos++;
        }
        desc = s.slice(start, pos);
        pos++;
      }
      if (url === '') continue;
      var w = /(?:^|\s)(\d+)w(?:\s|$)/.exec(desc), x = /(?:^|\s)(\d*\.?\d+)x(?:\s|$)/.exec(desc);
      var wv = w ? parseInt(w[1], 10) : -1, xv = x ? parseFloat(x[1]) : (w ? -1 : 1);
      if (wv > bestW || (bestW < 0 && wv < 0 && xv > bestX)) {
        best = url; bestW = Math.max(bestW, wv); bestX = xv;
      }
    }
    return best;
  }

  /**
   * The source of image `img` (READER.md "Images"), or '' when it has none worth showing.
   * A candidate the browser loaded as 1×1 or failed to load is never used; a data: URI
   * under PLACEHOLDER_DATA_URI_CHARS is used only when nothing else is left.
   */
  function imageSource(img) {
    var raws = [], i;
    var current = typeof img.currentSrc === 'string' ? img.currentSrc : '';
    raws.push(current, attr(img, 'src'));
    for (i = 0; i < LAZY_SRC.length; i++) raws.push(attr(img, LAZY_SRC[i]));
    raws.push(largestOfSrcset(attr(img, 'srcset')), largestOfSrcset(attr(img, 'data-srcset')));
    var pic = parentElementOf.call(img);
    if (pic !== null && nameOf(pic) === 'picture') {
      for (var k = firstChildOf.call(pic); k !== null; k = nextSiblingOf.call(k)) {
        if (nodeTypeOf.call(k) === 1 && nameOf(k) === 'source') {
          raws.push(largestOfSrcset(attr(k, 'srcset')), largestOfSrcset(attr(k, 'data-srcset')));
        }
      }
    }
    // A loaded 1×1 (a spacer, a tracking pixel) or a failed load (0×0; an SVG without a
    // size is 0×0 too, so not those) is never the picture.
    var dead = '';
    if (current !== '' && img.complete) {
      var w = img.naturalWidth, h = img.naturalHeight;
      if ((w === 1 && h === 1) || (w === 0 && h === 0 && !/\.svg(?:[?#]|$)/i.test(current))) dead = current;
    }
    var fallback = '';
    for (i = 0; i < raws.length; i++) {
      var url = imageUrl(raws[i], img);
      if (url === '' || url === dead) continue;
      if (/^data:/i.test(url) && url.length < PLACEHOLDER_DATA_URI_CHARS) {
        if (fallback === '') fallback = url;
        continue;
      }
      return url;
    }
    return fallback;
  }

  // --- attributes -------------------------------------------------------------------------

  function bounded(v) {
    return v !== null && v.length <= MAX_ATTR_CHARS ? v : null;
  }

  /** The allowed attributes of `el` emitted as `tag` (READER.md table), or null when none. */
  function attributesOf(el, tag, url) {
    var a = null, v;
    function put(k, value) {
      if (value === null) return;
      if (a === null) a = {};
      a[k] = value;
    }
    v = attr(el, 'lang');
    if (v !== null && LANG_RE.test(v.trim())) put('lang', v.trim());
    v = attr(el, 'dir');
    if (v !== null && DIRS[v.trim().toLowerCase()] === true) put('dir', v.trim().toLowerCase());
    switch (tag) {
      case 'a':
        put('href', url);
        put('title', bounded(attr(el, 'title')));
        break;
      case 'img':
        put('src', url);
        put('alt', bounded(attr(el, 'alt')));
        put('title', bounded(attr(el, 'title')));
        v = attr(el, 'width');
        if (v !== null && SIZE_RE.test(v.trim())) put('width', v.trim());
        v = attr(el, 'height');
        if (v !== null && SIZE_RE.test(v.trim())) put('height', v.trim());
        break;
      case 'th':
      case 'td':
        put('colspan', span(attr(el, 'colspan')));
        put('rowspan', span(attr(el, 'rowspan')));
        if (tag === 'th') {
          v = attr(el, 'scope');
          if (v !== null && SCOPES[v.trim().toLowerCase()] === true) put('scope', v.trim().toLowerCase());
        }
        break;
      case 'ol':
        v = attr(el, 'start');
        if (v !== null && INTEGER_RE.test(v.trim())) put('start', v.trim());
        if (hasAttr.call(el, 'reversed')) put('reversed', '');
        v = attr(el, 'type');
        if (v !== null && OL_TYPES[v.trim()] === true) put('type', v.trim());
        break;
      case 'li':
        v = attr(el, 'value');
        if (v !== null && INTEGER_RE.test(v.trim())) put('value', v.trim());
        break;
      case 'pre':
      case 'code':
        put('class', codeClass(attr(el, 'class')));
        break;
      case 'time':
        v = bounded(attr(el, 'datetime'));
        if (v !== null) put('datetime', v.trim());
        break;
      case 'abbr':
        put('title', bounded(attr(el, 'title')));
        break;
      case 'details':
        if (hasAttr.call(el, 'open')) put('open', '');
        break;
    }
    return a;
  }

  function span(v) {
    if (v === null || !SPAN_RE.test(v.trim())) return null;
    var n = Number(v.trim());
    return n >= 1 && n <= MAX_SPAN ? String(n) : null;
  }

  /** The language-* tokens of a class value (lang-* normalised to language-*), or null. */
  function codeClass(v) {
    if (v === null) return null;
    var tokens = v.split(/\s+/), out = [], m;
    for (var i = 0; i < tokens.length; i++) {
      if ((m = CODE_CLASS_RE.exec(tokens[i])) !== null) {
        var t = 'language-' + m[1];
        if (out.indexOf(t) < 0) out.push(t);
      }
    }
    return out.length ? out.join(' ') : null;
  }

  // --- the walk ---------------------------------------------------------------------------

  /**
   * True for KaTeX's and MathJax's visually hidden MathML copy of a formula (an absolutely
   * positioned wrapper, so computed as a block, around a <math>): it sits inline in the
   * sentence and must not become a div that breaks the line.
   */
  function hiddenFormulaCopy(el, cs) {
    return (cs.position === 'absolute' || cs.position === 'fixed') && elQuery.call(el, 'math') !== null;
  }

  /** What element `name` becomes: an allowed tag, '' (unwrap) or null (leave out silently). */
  function mapTag(name, cs, el) {
    var blockish = cs !== null && BLOCK_DISPLAY.test(cs.display) && !hiddenFormulaCopy(el, cs);
    if (name === 'span') return blockish ? 'div' : 'span';
    if (BLOCK[name] === true || INLINE[name] === true) return name;
    if (ALIAS[name] !== undefined) return ALIAS[name];
    if (SILENT[name] === true) return null;
    if (name.lastIndexOf('mjx-', 0) === 0) return '';   // MathJax 3's wrappers: its MathML is inside
    if (LAYOUT[name] === true || name.indexOf('-') > 0) return 'div';
    return blockish ? 'div' : '';
  }

  function append(out, s) {
    var k = out.length - 1;
    if (k >= 0 && typeof out[k] === 'string') out[k] += s;
    else out.push(s);
  }

  /**
   * `c` without the whitespace-only strings at the edges of a block (`block`) or next to a
   * block child. Adjacent strings are merged, so a string's neighbours are elements.
   */
  function tidy(c, block) {
    var out = [], n = c.length;
    for (var i = 0; i < n; i++) {
      var x = c[i];
      if (typeof x === 'string' && WS_ONLY.test(x)) {
        var prev = i > 0 ? c[i - 1] : null, next = i + 1 < n ? c[i + 1] : null;
        if ((block && (prev === null || next === null)) ||
            (prev !== null && BLOCK[prev.t] === true) || (next !== null && BLOCK[next.t] === true)) {
          continue;
        }
      }
      out.push(x);
    }
    return out;
  }

  /** The children of `el` in the flat tree: [first child, null] or [null, array]. */
  function childrenOf(el, name) {
    var shadow = shadowRootOf.call(el);
    if (shadow !== null) return [firstChildOf.call(shadow), null];
    if (name === 'slot') {
      var assigned = assignedNodesOf.call(el, { flatten: true });
      if (assigned.length) return [null, assigned];
    }
    return [firstChildOf.call(el), null];
  }

  // --- formulas and figures ----------------------------------------------------------------

  /** The attributes of MathML or SVG element `el` worth sending (READER.md "Mathematics", "Figures"), or null. */
  function foreignAttrs(el) {
    var a = null, list = attrListOf.call(el);
    for (var i = 0; i < list.length; i++) {
      var name = list[i].name, v = list[i].value, lower = name.toLowerCase();
      if (lower.lastIndexOf('on', 0) === 0 || lower === 'style' || lower === 'class' || lower === 'src' ||
          lower.lastIndexOf('xmlns', 0) === 0) continue;
      if ((lower === 'href' || lower === 'xlink:href') && v.trim().charAt(0) !== '#') continue;
      if (v.length > (lower === 'd' || lower === 'points' ? MAX_GEOMETRY_CHARS : MAX_ATTR_CHARS)) continue;
      if (a === null) a = {};
      a[name] = v;
    }
    return a;
  }

  /** A copy of MathML / SVG element `el` as a payload node, at most `levels` deep; counts into `st`. */
  function copyForeign(el, levels, st) {
    var node = { t: String(localNameOf.call(el)) }, a = foreignAttrs(el), c = [];
    if (a !== null) {
      node.a = a;
      for (var k in a) st.chars += a[k].length;
    }
    st.elements++;
    for (var ch = firstChildOf.call(el); ch !== null; ch = nextSiblingOf.call(ch)) {
      var type = nodeTypeOf.call(ch);
      if (type === 3 || type === 4) {
        var s = dataOf.call(ch);
        st.chars += s.length;
        if (!WS_ONLY.test(s) || c.length) append(c, s);
      } else if (type === 1 && FOREIGN_DROP[nameOf(ch)] !== true) {
        if (levels <= 1 || st.elements >= MAX_ELEMENTS) {
          st.truncated = true;
          continue;
        }
        c.push(copyForeign(ch, levels - 1, st));
      }
    }
    if (c.length) node.c = c;
    return node;
  }

  /** A formula node of MathML element `el`, with the page's TeX as an x-tex annotation when it gives one. */
  function formulaNode(el, levels, st) {
    var node = copyForeign(el, levels, st);
    var fm = typeof globalThis.__pith.formula === 'function' ? globalThis.__pith.formula(el) : null;
    if (fm === null) return node;
    if (fm.display) {
      if (node.a === undefined) node.a = {};
      node.a.display = 'block';
    }
    var annotated = elQuery.call(el, 'annotation[encoding="application/x-tex"]') !== null;
    if (fm.tex !== '' && !annotated) {
      st.chars += fm.tex.length;
      node.c = [{ t: 'semantics', c: [{ t: 'mrow', c: node.c || [] },
        { t: 'annotation', a: { encoding: 'application/x-tex' }, c: [fm.tex] }] }];
    }
    return node;
  }

  /**
   * MathJax 2's source script when nothing typeset it (MathJax not run, or its output has no
   * MathML): a formula holding the TeX only, else null.
   */
  function scriptFormula(el) {
    var type = attr(el, 'type') || '';
    if (!TEX_TYPE.test(type)) return null;
    var id = attr(el, 'id') || '';
    var frame = id !== '' ? docQuery.call(document, '[id="' + id.replace(/["\\]/g, '') + '-Frame"]') : null;
    if (frame !== null && elQuery.call(frame, 'math') !== null) return null;
    var tex = collapse(textContentOf.call(el) || '');
    if (tex === '') return null;
    var node = { t: 'math', c: [{ t: 'semantics', c: [{ t: 'mtext', c: [tex] },
      { t: 'annotation', a: { encoding: 'application/x-tex' }, c: [tex] }] }] };
    if (/mode\s*=\s*display/i.test(type)) node.a = { display: 'block' };
    return node;
  }

  /** The sanitised content of `root`: {tree, words, elements, dropped, truncated}. */
  function walk(root, dropSet, quietSet) {
    var tree = [];
    var st = { words: 0, elements: 0, dropped: 0, truncated: false, visited: 0, chars: 0 };
    var stop = false;
    var stack = [];

    function frame(el, name, out, parentOut, node, depth, walkDepth, keepWs, block, flat) {
      var kids = childrenOf(el, name);
      stack.push({
        out: out, parentOut: parentOut, node: node, depth: depth, walk: walkDepth,
        keepWs: keepWs, block: block, flat: flat, next: kids[0], list: kids[1], idx: 0,
        quiet: quietSet.has(el)
      });
    }

    /** Close the top frame: tidy its element's children, leave out an empty element. */
    function pop() {
      var f = stack.pop();
      if (f.flat && !f.keepWs) append(f.out, '\n');
      var node = f.node;
      if (node === null) return;
      var c = f.keepWs ? node.c : tidy(node.c, f.block);
      if (c.length) {
        node.c = c;
      } else {
        delete node.c;
        if (KEEP_EMPTY[node.t] !== true && f.parentOut[f.parentOut.length - 1] === node) {
          f.parentOut.pop();
          st.elements--;
        }
      }
    }

    /**
     * Visit element `el`, a child of frame `f`: drop it, emit it or unwrap it. The root
     * (`isRoot`) is never dropped: the reader chose it, hidden or not.
     */
    function visit(el, f, isRoot) {
      if (++st.visited > MAX_VISITED) {
        st.truncated = true;
        stop = true;
        return;
      }
      var name = nameOf(el);
      if (name === 'script' && !isRoot) {        // scripts are in `drop` as code; a TeX source is content
        var fromTex = scriptFormula(el);
        if (fromTex !== null) {
          st.elements++;
          st.chars += 2 * textContentOf.call(el).length;
          f.out.push(fromTex);
          return;
        }
      }
      if (!isRoot && (NEVER_KEPT[name] === true || dropSet.has(el))) {
        st.dropped++;
        return;
      }
      if (f.walk + 1 > MAX_WALK_DEPTH) {
        st.truncated = true;
        return;
      }
      var cs = styleOf(el);
      if (!isRoot && isHidden(el, cs)) {
        st.dropped++;
        return;
      }
      if (name === 'math' || name === 'svg') {
        // A formula (its MathML and TeX) or a figure (a drawing at least MIN_FIGURE_PX a side).
        var box = name === 'svg' ? rectOf.call(el) : null;
        if (box !== null && (box.width < MIN_FIGURE_PX || box.height < MIN_FIGURE_PX)) {
          st.dropped++;
          return;
        }
        if (st.elements >= MAX_ELEMENTS) {
          st.truncated = true;
          stop = true;
          return;
        }
        var levels = Math.max(1, MAX_DEPTH - f.depth);
        f.out.push(name === 'math' ? formulaNode(el, levels, st) : copyForeign(el, levels, st));
        return;
      }
      var tag = name === 'slot' ? '' : mapTag(name, cs, el);
      if (tag === null) return;
      var url = null;
      if (tag === 'a') {
        url = absolute(attr(el, 'href'), el, LINK_SCHEMES) || null;
        if (url === null) tag = '';                 // not a safe link: keep its text
      } else if (tag === 'img') {
        url = imageSource(el);
        if (url === '') {
          st.dropped++;
          return;
        }
      }
      var flat = false;
      if (tag !== '' && f.depth > MAX_DEPTH && VOID[tag] !== true) {
        st.truncated = true;                         // nested too deep: flatten into the ancestor
        flat = BLOCK[tag] === true;
        tag = '';
      }
      if (tag === '') {
        if (flat && !f.keepWs) append(f.out, '\n');
        frame(el, name, f.out, f.parentOut, null, f.depth, f.walk + 1, f.keepWs, f.block, flat);
        return;
      }
      if (st.elements >= MAX_ELEMENTS) {
        st.truncated = true;
        stop = true;
        return;
      }
      var node = { t: tag };
      var a = attributesOf(el, tag, url);
      if (a !== null) {
        for (var k in a) st.chars += a[k].length;
        node.a = a;
      }
      st.elements++;
      f.out.push(node);
      if (VOID[tag] === true) return;
      node.c = [];
      frame(el, name, node.c, f.out, node, f.depth + 1, f.walk + 1,
        f.keepWs || tag === 'pre' || tag === 'code', BLOCK[tag] === true, false);
    }

    function text(s, f) {
      if (s === '') return;
      if (st.chars + s.length > MAX_CHARS) {
        s = s.slice(0, Math.max(0, MAX_CHARS - st.chars));
        st.truncated = true;
        stop = true;
      }
      st.chars += s.length;
      st.words += countWords(s);
      append(f.out, s);
    }

    // The root: emitted itself when it is content (a table, a list, a quote…), else only
    // its children are. A <form>, <nav> or <dialog> root (a page wrapped in a form, a block
    // chosen on purpose) gives its children too; any other never-kept root (a script, a
    // frame) gives nothing. A hidden root is collected all the same: the reader chose it.
    var rootName = nameOf(root);
    if (NEVER_KEPT[rootName] === true && CONTAINER_ROOTS[rootName] !== true) {
      st.dropped++;
      st.tree = tree;
      return st;
    }
    var rootStyle = styleOf(root);
    var rootTag = rootName === 'slot' || NEVER_KEPT[rootName] === true ? '' : mapTag(rootName, rootStyle, root);
    var keepWs = closestOf.call(root, 'pre, code') !== null;
    if (rootTag === 'a') rootTag = absolute(attr(root, 'href'), root, LINK_SCHEMES) ? 'a' : '';
    if (rootTag === 'img' || (rootTag !== null && rootTag !== '' && ROOT_CONTENTS[rootTag] !== true)) {
      visit(root, { out: tree, parentOut: tree, node: null, depth: 1, walk: -1, keepWs: keepWs, block: true }, true);
    } else {
      frame(root, rootName, tree, tree, null, 1, 0, keepWs, true, false);
    }

    while (stack.length) {
      var f = stack[stack.length - 1], child;
      if (stop) {
        child = null;
      } else if (f.list !== null) {
        child = f.idx < f.list.length ? f.list[f.idx++] : null;
      } else {
        child = f.next;
        if (child !== null) f.next = nextSiblingOf.call(child);
      }
      if (child === null) {
        pop();
        continue;
      }
      var type = nodeTypeOf.call(child);
      if (type === 1) visit(child, f, false);
      else if ((type === 3 || type === 4) && !f.quiet) text(dataOf.call(child), f);
      // comments and processing instructions are not content
    }
    st.tree = tidy(tree, true);
    return st;
  }

  // --- the element's language ---------------------------------------------------------

  function langFor(root) {
    var el = closestOf.call(root, '[lang]');
    var v = el !== null ? (attr(el, 'lang') || '').trim() : '';
    if (v === '') {
      var html = documentElementOf.call(document);
      v = html !== null ? (attr(html, 'lang') || '').trim() : '';
    }
    return v;
  }

  function linksOf(list) {
    var out = [];
    if (!Array.isArray(list)) return out;
    var html = documentElementOf.call(document);
    for (var i = 0; i < list.length && out.length < MAX_LINKS; i++) {
      var l = list[i];
      if (l === null || typeof l !== 'object' || typeof l.text !== 'string' || typeof l.href !== 'string') continue;
      var href = absolute(l.href, html, LINK_SCHEMES);
      if (href !== '') out.push({ text: l.text, href: href });
    }
    return out;
  }

  // --- the API ----------------------------------------------------------------------------

  function isElement(x) {
    try {
      return nodeTypeOf.call(x) === 1;
    } catch (e) {
      return false;                       // not a Node at all
    }
  }

  /** Elements of the rows in `list` (integers of the capture), except `row`'s. */
  function elementsOf(list, nodes, row) {
    var out = new Set();
    if (!Array.isArray(list)) return out;
    for (var i = 0; i < list.length; i++) {
      var d = list[i];
      if (Number.isInteger(d) && d >= 0 && d < nodes.length && d !== row && isElement(nodes[d])) {
        out.add(nodes[d]);
      }
    }
    return out;
  }

  /** READER.md's content payload of `spec` = {node, drop, links, quiet}; see the header. */
  function collect(spec) {
    try {
      var nodes = globalThis.__pith && globalThis.__pith.nodes;
      if (!Array.isArray(nodes)) return { ok: false, reason: 'no capture of this page to collect from' };
      var row = spec !== null && typeof spec === 'object' ? spec.node : undefined;
      if (!Number.isInteger(row) || row < 0 || row >= nodes.length) {
        return { ok: false, reason: 'row ' + String(row) + ' is not in the last capture' };
      }
      var root = nodes[row];
      if (!isElement(root)) return { ok: false, reason: 'row ' + row + ' is not an element' };
      if (!isConnectedOf.call(root)) return { ok: false, reason: 'the element was removed from the page' };

      var dropSet = elementsOf(spec.drop, nodes, row);
      var quietSet = elementsOf(spec.quiet, nodes, -1);   // the root's own text may go too

      var st = walk(root, dropSet, quietSet);
      var dir = styleOf(root).direction === 'rtl' ? 'rtl' : 'ltr';
      return {
        ok: true,
        payload: {
          v: PAYLOAD_VERSION,
          url: location.href,
          lang: langFor(root),
          dir: dir,
          words: st.words,
          minutes: Math.max(1, Math.round(st.words / WORDS_PER_MINUTE)),
          tree: st.tree,
          links: linksOf(spec.links),
          stats: { elements: st.elements, dropped: st.dropped, truncated: st.truncated }
        }
      };
    } catch (e) {
      return { ok: false, reason: 'the collector failed: ' + (e && e.message ? e.message : String(e)) };
    }
  }

  var g = globalThis;
  if (typeof g.__pith !== 'object' || g.__pith === null) {
    Object.defineProperty(g, '__pith', { value: {}, writable: true, configurable: true, enumerable: false });
  }
  g.__pith.collect = collect;
})();
