/* Pith capture: turn the live DOM into the columnar snapshot of host/SNAPSHOT.md, returned as one JSON string.
 *
 * A classic script without dependencies, shared verbatim by the extension
 * (chrome.scripting.executeScript({files: ['inject/capture.js']})) and the CLI (Playwright's
 * page.evaluate(source)). Its completion value, the last expression statement, is the JSON
 * string, so both callers get it back as the script's result.
 *
 * Safe to inject any number of times: everything lives inside one function call, and the
 * only global touched is globalThis.__pith (created if absent, never replaced), whose
 * `nodes` is set to the Element of every row of the last capture, so that a later script
 * (inject/highlight.js) can map a node id back to its element. The extension also leaves
 * __pith.sendLimit there first: a capture surely over what it can send to the host comes
 * back as {v, n, too_large} instead of tens of megabytes it would only refuse.
 *
 * The walk is iterative (pages nest 10,000 deep), preorder over the flat tree: open shadow
 * roots, slots' assigned nodes, same-origin frames' documents. Columns are plain arrays
 * filled row by row and serialised once: one JSON string is far cheaper to hand back than
 * nested arrays or objects (DESIGN.md §5).
 */
(function pithCapture() {
  'use strict';

  var SNAPSHOT_VERSION = 1;      // host/SNAPSHOT.md; bumped together with pith.SNAPSHOT_VERSION
  var MAX_URL_CHARS = 2048;      // data: URIs run to megabytes; the host needs scheme and host only
  var DEFAULT_FS = 16;           // px, the initial font size of every browser
  var DEFAULT_FW = 400;          // CSS "normal"
  var COORD_SCALE = 100;         // boxes rounded to 1/100 px: sub-pixel noise only bloats the JSON

  // The `declared` object (host/SNAPSHOT.md; host/pith/pipeline/metadata/declared.py builds the
  // same from static HTML and names each limit's reason).
  var MAX_DECLARED_ENTRIES = 1000, MAX_DECLARED_CHARS = 2000;
  var MAX_LD_SCRIPTS = 32, MAX_LD_CHARS = 500000;
  var META_KEYS = ['property', 'name', 'http-equiv'];
  var ITEM_URL_TAGS = { a: 1, link: 1, area: 1, img: 1, audio: 1, video: 1, source: 1, embed: 1, iframe: 1 };
  var LINK_TAGS = { link: 1, a: 1, area: 1 };
  var REL_KEPT = { canonical: 1, author: 1, license: 1, tag: 1, category: 1, image_src: 1 };
  // A web component's time element (`<relative-time datetime>`, `<faceplate-timeago ts>`):
  // declared.py's TIME_ELEMENT and TIME_ATTRIBUTES.
  var TIME_ELEMENT = /(?:^|-)(?:time|timeago|time-ago|date)$/;

  // hidden bitmask, host/SNAPSHOT.md
  var H_DISPLAY_NONE = 1, H_VISIBILITY = 2, H_OPACITY = 4, H_ZERO_SIZE = 8, H_ARIA = 16;

  // Elements whose src names a resource worth a host (ad servers, embeds, media).
  var SRC_TAGS = { img: 1, iframe: 1, frame: 1, video: 1, audio: 1, source: 1, embed: 1, script: 1 };
  // Elements whose text is code or inert markup, not content.
  var NO_TEXT_TAGS = { script: 1, style: 1, template: 1 };
  // The TeX a formula was written in: MathML's own annotation (KaTeX writes one) …
  var TEX_ANNOTATION = 'annotation[encoding="application/x-tex"]';
  // … or MathJax 2's source script, whose id is its rendering's frame id without "-Frame".
  var MATHJAX2_FRAME = '[id^="MathJax-Element-"]';
  // Wrappers that display a formula as a block (KaTeX, MathJax 2, MathJax 3).
  var DISPLAY_WRAPPERS = '.katex-display, .MathJax_Display, mjx-container[display="true"]';

  // DOM accessors taken from the prototypes once: a <form> exposes its controls as
  // properties, so <input name="nextSibling"> (or getAttribute, localName, ...) would
  // otherwise shadow the form's own (DOM clobbering) and derail the walk.
  function getter(proto, prop) {
    return Object.getOwnPropertyDescriptor(proto, prop).get;
  }
  var getAttr = Element.prototype.getAttribute;
  var rectOf = Element.prototype.getBoundingClientRect;
  var localNameOf = getter(Element.prototype, 'localName');
  var shadowRootOf = getter(Element.prototype, 'shadowRoot');
  var baseURIOf = getter(Node.prototype, 'baseURI');
  var nodeTypeOf = getter(Node.prototype, 'nodeType');
  var firstChildOf = getter(Node.prototype, 'firstChild');
  var nextSiblingOf = getter(Node.prototype, 'nextSibling');
  var textContentOf = getter(Node.prototype, 'textContent');
  var elQuery = Element.prototype.querySelector;
  var closestOf = Element.prototype.closest;
  var byId = Document.prototype.getElementById;

  /**
   * {tex, display} of a MathML <math> element (SNAPSHOT.md, `alt` of a math row; the reader's
   * collector asks the same through __pith.formula): the page's TeX source ('' when it gives
   * none) from an x-tex annotation or MathJax 2's script, and whether it is displayed as a
   * block (display="block", a display-mode script, a display wrapper).
   */
  function formula(el) {
    var tex = '', display = (getAttr.call(el, 'display') || '').trim().toLowerCase() === 'block';
    var ann = elQuery.call(el, TEX_ANNOTATION);
    if (ann !== null) tex = textContentOf.call(ann) || '';
    var frame = closestOf.call(el, MATHJAX2_FRAME);
    var doc = el.ownerDocument;
    if (frame !== null && doc !== null) {
      var script = byId.call(doc, (getAttr.call(frame, 'id') || '').replace(/-Frame$/, ''));
      var type = script !== null ? (getAttr.call(script, 'type') || '') : '';
      if (script !== null && localNameOf.call(script) === 'script' && /^\s*math\/tex/i.test(type)) {
        if (tex.trim() === '') tex = textContentOf.call(script) || '';
        if (/mode\s*=\s*display/i.test(type)) display = true;
      }
    }
    if (!display && closestOf.call(el, DISPLAY_WRAPPERS) !== null) display = true;
    return { tex: tex.replace(/\s+/g, ' ').trim(), display: display };
  }

  /** The delimited TeX of a MathJax 2 source script nothing typeset (no MathML in its frame), else ''. */
  function untypesetTex(el) {
    var type = getAttr.call(el, 'type') || '';
    if (!/^\s*math\/tex/i.test(type)) return '';
    var doc = el.ownerDocument, id = getAttr.call(el, 'id') || '';
    var frame = id !== '' && doc !== null ? byId.call(doc, id + '-Frame') : null;
    if (frame !== null && elQuery.call(frame, 'math') !== null) return '';
    var tex = (textContentOf.call(el) || '').replace(/\s+/g, ' ').trim();
    if (tex === '') return '';
    return /mode\s*=\s*display/i.test(type) ? '\\[' + tex + '\\]' : '\\(' + tex + '\\)';
  }

  function round(v) {
    return Math.round(v * COORD_SCALE) / COORD_SCALE;
  }

  /** [resolved url (capped), lower-case host name] of attribute value `raw` of `el`. */
  function resolve(el, raw) {
    var url = raw, host = '';
    try {
      var u = new URL(raw, baseURIOf.call(el));
      url = u.href;
      host = u.hostname;
    } catch (e) {
      // not a URL (e.g. "http://[bad"): keep it raw, no host
    }
    if (url.length > MAX_URL_CHARS) url = url.slice(0, MAX_URL_CHARS);
    return [url, host];
  }

  /**
   * JSON.stringify(value), immune to the toJSON methods some pages (Prototype.js) put on
   * Array.prototype or Object.prototype; they are put back before returning.
   */
  function stringify(value) {
    var protos = [Array.prototype, Object.prototype], saved = [], i;
    for (i = 0; i < protos.length; i++) {
      var d = Object.getOwnPropertyDescriptor(protos[i], 'toJSON');
      if (d && d.configurable) {
        saved.push([protos[i], d]);
        delete protos[i].toJSON;
      }
    }
    try {
      return JSON.stringify(value);
    } finally {
      for (i = 0; i < saved.length; i++) Object.defineProperty(saved[i][0], 'toJSON', saved[i][1]);
    }
  }

  function cut(v) {
    return v.length > MAX_DECLARED_CHARS ? v.slice(0, MAX_DECLARED_CHARS) : v;
  }

  function push(list, entry) {
    if (list.length < MAX_DECLARED_ENTRIES) list.push(entry);
  }

  /** Add what element `el` (row `row`, tag `name`) declares to `D` (host/SNAPSHOT.md). */
  function declare(D, el, row, name) {
    var v, i;
    if (name === 'meta' && (v = getAttr.call(el, 'content')) !== null) {
      for (i = 0; i < META_KEYS.length; i++) {
        var key = getAttr.call(el, META_KEYS[i]);
        if (key !== null && key.trim() !== '') push(D.meta, [row, key.trim().toLowerCase(), cut(v)]);
      }
    }
    var prop = getAttr.call(el, 'itemprop');
    if (prop !== null && prop.trim() !== '') {
      v = getAttr.call(el, 'content');
      if (v === null) v = getAttr.call(el, 'datetime');
      if (v === null && ITEM_URL_TAGS[name] === 1) {
        var raw = getAttr.call(el, LINK_TAGS[name] === 1 ? 'href' : 'src');
        v = raw !== null ? resolve(el, raw.trim())[0] : null;
      }
      push(D.items, [row, prop.trim(), v === null ? null : cut(v)]);
    }
    if (getAttr.call(el, 'itemscope') !== null) {
      push(D.scopes, [row, cut((getAttr.call(el, 'itemtype') || '').trim())]);
    }
    var rel, href;
    if (LINK_TAGS[name] === 1 && (rel = getAttr.call(el, 'rel')) !== null &&
        (href = getAttr.call(el, 'href')) !== null) {
      var words = rel.toLowerCase().split(/\s+/).filter(Boolean);
      for (i = 0; i < words.length; i++) {
        if (REL_KEPT[words[i]] === 1) {
          push(D.links, [row, words.join(' '), resolve(el, href.trim())[0]]);
          break;
        }
      }
    }
    if (name === 'time' ? (v = getAttr.call(el, 'datetime')) !== null
        : name.indexOf('-') >= 0 && TIME_ELEMENT.test(name) &&
          ((v = getAttr.call(el, 'datetime')) !== null || (v = getAttr.call(el, 'ts')) !== null)) {
      push(D.times, [row, cut(v)]);
    }
    if (name === 'script' && ((getAttr.call(el, 'type') || '').trim().toLowerCase() === 'application/ld+json') &&
        D.ld.length < MAX_LD_SCRIPTS) {
      var src = textContentOf.call(el) || '';
      if (src.length <= MAX_LD_CHARS) D.ld.push(src);
    }
  }

  function isAriaHidden(el) {
    var a = getAttr.call(el, 'aria-hidden');
    return a !== null && a.trim().toLowerCase() === 'true';
  }

  /** The extension's {bytes, textChars} (set in __pith.sendLimit before this script runs),
   * or null: the command line sets none and always gets the whole capture. */
  function sendLimitOf(p) {
    var lim = p && typeof p === 'object' ? p.sendLimit : null;
    return lim && lim.bytes > 0 && lim.textChars > 0 ? lim : null;
  }

  function capture() {
    var t0 = performance.now();
    var doc = document, win = window;
    var sendLimit = sendLimitOf(globalThis.__pith);

    var C = {
      tag: [], parent: [], text: [], tail: [], link: [], id: [], cls: [], role: [],
      host: [], url: [], alt: [], x: [], y: [], w: [], h: [], hidden: [], fs: [], fw: [],
      color: [], frame: []
    };
    var tag = C.tag, parent = C.parent, text = C.text, tail = C.tail, link = C.link;
    var ids = C.id, cls = C.cls, role = C.role, hostc = C.host, urlc = C.url, alt = C.alt;
    var X = C.x, Y = C.y, W = C.w, H = C.h, hidden = C.hidden, fs = C.fs, fw = C.fw;
    var color = C.color, frame = C.frame;
    var nodes = [];
    var warnings = [];
    var declared = { meta: [], items: [], scopes: [], links: [], times: [], ld: [] };

    // The open elements, one level per depth, as parallel arrays:
    //   sRow   row of the element whose children are being walked
    //   sNext  next child in the sibling chain, or null when walking sList instead
    //   sList  array of children (slot assignments, a frame's <html>), else null
    //   sIdx   position in sList
    //   sLast  row of the last child element seen (its tail takes the next text), -1 none yet
    //   sSkip  the element's text is not captured (script, style, template)
    //   sNone  inside a display:none subtree: style is not computed, boxes are zero
    //   sCtx   {win, ox, oy}: the window whose style applies, and page offset of its viewport
    var sRow = [], sNext = [], sList = [], sIdx = [], sLast = [], sSkip = [], sNone = [];
    var sCtx = [];
    var depth = -1;

    /** Append the row of element `el`, push it as an open element; returns nothing. */
    function open(el, par, ctx, inNone) {
      var row = tag.length;
      var name = localNameOf.call(el).toLowerCase();
      nodes.push(el);
      tag.push(name);
      parent.push(par);
      text.push('');
      tail.push('');
      ids.push(getAttr.call(el, 'id') || '');
      cls.push(getAttr.call(el, 'class') || '');
      // aria-modal is defined only on dialogs; a page that forgets role="dialog" still
      // declares one (SNAPSHOT.md, `role`)
      role.push(getAttr.call(el, 'role') ||
                ((getAttr.call(el, 'aria-modal') || '').trim().toLowerCase() === 'true' ? 'dialog' : ''));

      var isLink = 0, url = '', host = '', raw;
      if ((name === 'a' || name === 'area') && (raw = getAttr.call(el, 'href')) !== null) {
        isLink = 1;
        var r1 = resolve(el, raw.trim());
        url = r1[0]; host = r1[1];
      } else if (SRC_TAGS[name] === 1 && (raw = getAttr.call(el, 'src')) !== null) {
        var r2 = resolve(el, raw.trim());
        url = r2[0]; host = r2[1];
      }
      link.push(isLink);
      urlc.push(url);
      hostc.push(host);

      var altv = '';
      if (name === 'img' || name === 'area' || name === 'input') {
        altv = getAttr.call(el, 'alt') || '';
        if (altv === '' && name === 'img') altv = getAttr.call(el, 'title') || '';
      } else if (name === 'math') {
        var fm = formula(el);           // SNAPSHOT.md: \(tex\) inline, \[tex\] displayed
        altv = fm.display ? '\\[' + fm.tex + '\\]' : '\\(' + fm.tex + '\\)';
      } else if (name === 'script') {
        altv = untypesetTex(el);
      }
      alt.push(altv);
      if (ctx.win === win) declare(declared, el, row, name);   // the top document's only

      var bits = isAriaHidden(el) ? H_ARIA : 0;
      var x = 0, y = 0, w = 0, h = 0, cs = null;
      if (inNone) {
        // No box inside a display:none subtree; inherit the parent's text style.
        bits |= H_ZERO_SIZE;
        fs.push(fs[par]);
        fw.push(fw[par]);
        color.push(color[par]);
      } else {
        cs = ctx.win.getComputedStyle(el);
        var display = cs.display;
        if (display === 'none') bits |= H_DISPLAY_NONE;
        var vis = cs.visibility;
        if (vis === 'hidden' || vis === 'collapse') bits |= H_VISIBILITY;
        if (cs.opacity === '0') bits |= H_OPACITY;
        var f = parseFloat(cs.fontSize);
        fs.push(f === f ? f : DEFAULT_FS);
        var g = parseInt(cs.fontWeight, 10);
        fw.push(g === g ? g : DEFAULT_FW);
        color.push(cs.color || '');
        if (display === 'none') {
          bits |= H_ZERO_SIZE;            // no box at all: report zeros, not the viewport origin
        } else if (display !== 'contents') {
          // display:contents generates no box of its own, its children do (slots are
          // display:contents): it gets zeros but not the zero-size bit.
          var r = rectOf.call(el);
          x = round(r.left + ctx.ox);
          y = round(r.top + ctx.oy);
          w = round(r.width);
          h = round(r.height);
          if (w === 0 || h === 0) bits |= H_ZERO_SIZE;
        }
      }
      X.push(x); Y.push(y); W.push(w); H.push(h);
      hidden.push(bits);

      // Children in the flat tree.
      var first = null, list = null, childCtx = ctx, fr = 0, shadow;
      if (name === 'iframe' || name === 'frame') {
        var cdoc = null;
        try {
          cdoc = el.contentDocument;
        } catch (e) {
          cdoc = null;
        }
        if (cdoc && cdoc.documentElement && cdoc.defaultView) {
          fr = 1;
          list = [cdoc.documentElement];
          var ox = 0, oy = 0;
          if (cs !== null) {
            ox = x + el.clientLeft + (parseFloat(cs.paddingLeft) || 0);
            oy = y + el.clientTop + (parseFloat(cs.paddingTop) || 0);
          }
          childCtx = { win: cdoc.defaultView, ox: ox, oy: oy };
        } else {
          fr = 2;
          warnings.push({
            node: row, code: 'cross_origin_frame',
            message: 'frame not captured (cross-origin, sandboxed or not loaded): ' +
              (url || (getAttr.call(el, 'srcdoc') !== null ? 'srcdoc' : 'no src'))
          });
        }
      } else if (name === 'svg') {
        // Its children are drawing instructions, not content: the row alone stays.
      } else if ((shadow = shadowRootOf.call(el)) !== null) {
        first = firstChildOf.call(shadow);
      } else if (name === 'slot' && typeof el.assignedNodes === 'function') {
        var assigned = el.assignedNodes();
        if (assigned.length) list = assigned; else first = firstChildOf.call(el);
      } else {
        first = firstChildOf.call(el);
      }
      frame.push(fr);

      depth++;
      sRow[depth] = row;
      sNext[depth] = first;
      sList[depth] = list;
      sIdx[depth] = 0;
      sLast[depth] = -1;
      sSkip[depth] = NO_TEXT_TAGS[name] === 1;
      sNone[depth] = inNone || (bits & H_DISPLAY_NONE) !== 0;
      sCtx[depth] = childCtx;
    }

    var root = doc.documentElement;
    if (root) {
      open(root, -1, { win: win, ox: win.scrollX, oy: win.scrollY }, false);
    }
    while (depth >= 0) {
      var node, list = sList[depth];
      if (list !== null) {
        node = sIdx[depth] < list.length ? list[sIdx[depth]++] : null;
      } else {
        node = sNext[depth];
        if (node !== null) sNext[depth] = nextSiblingOf.call(node);
      }
      if (node === null) {
        depth--;
        continue;
      }
      var type = nodeTypeOf.call(node);
      if (type === 1) {
        var row = tag.length;
        var at = depth;
        open(node, sRow[at], sCtx[at], sNone[at]);
        sLast[at] = row;
      } else if (type === 3 || type === 4) {
        if (sSkip[depth]) continue;
        var last = sLast[depth];
        if (last < 0) text[sRow[depth]] += node.data;
        else tail[last] += node.data;
      }
      // comments, processing instructions: not rows, and their text is not content
    }

    var body = doc.body;
    var snap = {
      v: SNAPSHOT_VERSION,
      url: doc.URL,
      title: doc.title,
      lang: root ? (getAttr.call(root, 'lang') || '') : '',
      layout: true,
      viewport: [win.innerWidth, win.innerHeight],
      page: [
        Math.max(root ? root.scrollWidth : 0, body ? body.scrollWidth : 0),
        Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0)
      ],
      capture_ms: 0,
      n: tag.length,
      nodes: C,
      warnings: warnings,
      declared: declared
    };
    if (!root) {
      warnings.push({ node: -1, code: 'no_document_element', message: 'the document has no root element' });
    }

    var g = globalThis;
    if (typeof g.__pith !== 'object' || g.__pith === null) {
      Object.defineProperty(g, '__pith', { value: {}, writable: true, configurable: true, enumerable: false });
    }
    g.__pith.nodes = nodes;
    g.__pith.formula = formula;

    snap.capture_ms = Math.round((performance.now() - t0) * 10) / 10;
    var json = stringify(snap);
    if (sendLimit) {
      var atLeast = json.length - cutChars(text, sendLimit.textChars) -
                    cutChars(tail, sendLimit.textChars);
      if (atLeast > sendLimit.bytes) {
        return stringify({ v: SNAPSHOT_VERSION, n: tag.length,
                           too_large: { at_least: atLeast, limit: sendLimit.bytes } });
      }
    }
    return json;
  }

  /** The most characters the extension's cut (extension/background/sendable.js) can take
   * from `values`: all past `limit` of each string, and one more where it stops short of a
   * surrogate pair. */
  function cutChars(values, limit) {
    var n = 0;
    for (var i = 0; i < values.length; i++) {
      if (values[i].length > limit) n += values[i].length - limit + 1;
    }
    return n;
  }

  return capture();
})();
