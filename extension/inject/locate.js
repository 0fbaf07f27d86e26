/* Pith locate: name an element of the last capture with a CSS selector that survives content changes, and find it again (per-site rules).
 *
 * A classic script injected with scripting.executeScript into the extension's isolated
 * world (before capture.js, see background/page.js). It installs
 *
 *   __pith.locate.selectorFor(row)        → {selector, tag, chars} | null
 *   __pith.locate.resolve(selector, minChars) → row of the last capture, or -1
 *
 * and returns nothing; running it again installs the same functions again (no state).
 * Rows index globalThis.__pith.nodes (row → Element, left by capture.js).
 *
 * selectorFor builds, in this order of preference, the first selector that matches the
 * element and nothing else in the document (checked with querySelectorAll):
 *   1. `#id` when the element's id looks hand-written (see goodName) and is unique;
 *      `main` / `article` when the element is the only one of its kind;
 *   2. `ANCHOR STEP`: the element's step below the nearest anchor: an ancestor with such
 *      an id, the only `main` or `article`, else `body`;
 *   3. `ANCHOR > STEP > … > STEP`: the child chain from the anchor down;
 *   4. the same chain with `:nth-of-type(k)` added to the steps whose element has a
 *      same-tag sibling matching the same step, nearest first, until it is unique.
 * A STEP is the tag name and at most MAX_CLASSES hand-written-looking classes. Ids, tags
 * and classes go through CSS.escape. null for html, body, head and what is in it, elements
 * inside shadow roots or frames (a document selector cannot reach them), and when no
 * unique selector comes out.
 *
 * "Hand-written-looking" (goodName), for ids and classes alike: a letter first, then only
 * letters, digits, '-' and '_'; at most MAX_NAME_CHARS; no run of 4 or more digits (dates,
 * counters, database keys); no run of 6 or more hex characters holding a digit (hashes);
 * no signature of a generator (css-, sc-, jsx-, emotion-, svelte-, styled-, react-, radix-,
 * headlessui-, ng-tns- prefixes, Ember's ember123, a CSS-modules `__` + 5 character suffix,
 * a short random mixed-case token like kVXzLG); classes also not a state (active, open,
 * is-*, has-*…), which comes and goes with the reader's clicks.
 */
(function pithLocate() {
  'use strict';

  // Longer names are generated (or whole sentences of utility classes).
  var MAX_NAME_CHARS = 40;
  // More classes per step make the selector break when one of them changes.
  var MAX_CLASSES = 2;

  var NAME_RE = /^[A-Za-z][\w-]*$/;
  var DIGIT_RUN_RE = /\d{4,}/;
  var HEX_RUN_RE = /[0-9a-f]{6,}/gi;
  var GENERATED_PREFIX_RE = /^(?:css|sc|jsx|emotion|svelte|styled|react|radix|headlessui|ng-tns)-|^ember\d/i;
  var CSS_MODULES_RE = /__[A-Za-z0-9_-]{5}$/;
  var STATE_CLASS_RE = /^(?:is|has)-|^(?:active|current|selected|open|opened|closed|collapsed|expanded|show|shown|hidden|visible|in|fade|loaded|loading|sticky|fixed|focus|hover|disabled)$/i;
  var NO_ANCHOR = { html: true, head: true, body: true };

  function getter(proto, prop) {
    return Object.getOwnPropertyDescriptor(proto, prop).get;
  }
  var getAttr = Element.prototype.getAttribute;
  var matchesOf = Element.prototype.matches;
  var closestOf = Element.prototype.closest;
  var clientRectsOf = Element.prototype.getClientRects;
  var docQueryAll = Document.prototype.querySelectorAll;
  var localNameOf = getter(Element.prototype, 'localName');
  var nodeTypeOf = getter(Node.prototype, 'nodeType');
  var isConnectedOf = getter(Node.prototype, 'isConnected');
  var parentElementOf = getter(Node.prototype, 'parentElement');
  var firstChildOf = getter(Node.prototype, 'firstChild');
  var nextSiblingOf = getter(Node.prototype, 'nextSibling');
  var textContentOf = getter(Node.prototype, 'textContent');
  var innerTextOf = getter(HTMLElement.prototype, 'innerText');
  var getRootNodeOf = Node.prototype.getRootNode;
  var styleOf = window.getComputedStyle.bind(window);

  function nodes() {
    var p = globalThis.__pith;
    return p && Array.isArray(p.nodes) ? p.nodes : [];
  }

  function isElement(x) {
    try {
      return nodeTypeOf.call(x) === 1;
    } catch (e) {
      return false;
    }
  }

  function nameOf(el) {
    return String(localNameOf.call(el)).toLowerCase();
  }

  /** true when `name` looks written by a person, not generated (see the header). */
  function goodName(name, isClass) {
    if (typeof name !== 'string' || name.length > MAX_NAME_CHARS || !NAME_RE.test(name)) return false;
    if (DIGIT_RUN_RE.test(name) || GENERATED_PREFIX_RE.test(name) || CSS_MODULES_RE.test(name)) return false;
    var hex = name.match(HEX_RUN_RE);
    for (var i = 0; hex !== null && i < hex.length; i++) if (/\d/.test(hex[i])) return false;
    // styled-components and friends: "kVXzLG", "bdfBwQ" (two or more capitals inside a short word)
    if (/^[A-Za-z]{5,8}$/.test(name) && /[A-Z].*[A-Z]/.test(name.slice(1)) && /[a-z]/.test(name)) return false;
    return !(isClass && STATE_CLASS_RE.test(name));
  }

  function queryAll(selector) {
    try {
      return docQueryAll.call(document, selector);
    } catch (e) {
      return null;                        // not a valid selector
    }
  }

  function unique(selector, el) {
    var list = queryAll(selector);
    return list !== null && list.length === 1 && list[0] === el;
  }

  /** `#id` when `el`'s id looks hand-written and names `el` alone, else null. */
  function idSelector(el) {
    var id = getAttr.call(el, 'id');
    if (id === null || !goodName(id, false)) return null;
    var sel = '#' + CSS.escape(id);
    return unique(sel, el) ? sel : null;
  }

  /** A selector naming `el` alone on its own: its id, or the only main / article. */
  function anchorSelector(el) {
    var name = nameOf(el);
    if (name === 'body') return 'body';
    var sel = idSelector(el);
    if (sel !== null) return sel;
    if ((name === 'main' || name === 'article') && unique(name, el)) return name;
    return null;
  }

  /** The tag of `el` and its first MAX_CLASSES hand-written-looking classes. */
  function step(el) {
    var out = CSS.escape(localNameOf.call(el));
    var cls = (getAttr.call(el, 'class') || '').split(/\s+/), used = [];
    for (var i = 0; i < cls.length && used.length < MAX_CLASSES; i++) {
      if (cls[i] !== '' && used.indexOf(cls[i]) < 0 && goodName(cls[i], true)) {
        used.push(cls[i]);
        out += '.' + CSS.escape(cls[i]);
      }
    }
    return out;
  }

  /** ':nth-of-type(k)' when a same-tag sibling of `el` also matches `stepSel`, else ''. */
  function nthIfNeeded(el, stepSel) {
    var parent = parentElementOf.call(el);
    if (parent === null) return '';
    var name = localNameOf.call(el), k = 0, index = 0, ambiguous = false;
    for (var c = firstChildOf.call(parent); c !== null; c = nextSiblingOf.call(c)) {
      if (nodeTypeOf.call(c) !== 1 || localNameOf.call(c) !== name) continue;
      k++;
      if (c === el) index = k;
      else if (matchesOf.call(c, stepSel)) ambiguous = true;
    }
    return ambiguous ? ':nth-of-type(' + index + ')' : '';
  }

  function textLength(el) {
    var t = '';
    try {
      t = innerTextOf.call(el);
    } catch (e) {
      t = '';                               // not an HTMLElement
    }
    t = typeof t === 'string' ? t.trim() : '';
    if (t === '') t = String(textContentOf.call(el) || '').trim();
    return t.length;
  }

  function result(selector, el) {
    return { selector: selector, tag: nameOf(el), chars: textLength(el) };
  }

  /** {selector, tag, chars} naming the element of row `row` alone, or null (see the header). */
  function selectorFor(row) {
    var list = nodes();
    if (!Number.isInteger(row) || row < 0 || row >= list.length) return null;
    var el = list[row];
    if (!isElement(el) || !isConnectedOf.call(el) || getRootNodeOf.call(el) !== document) return null;
    if (NO_ANCHOR[nameOf(el)] === true || closestOf.call(el, 'head') !== null) return null;

    var own = anchorSelector(el);
    if (own !== null) return result(own, el);

    // The chain from `el` up to the nearest anchor (exclusive).
    var chain = [], anchor = null, cur = el;
    while (anchor === null) {
      chain.push(cur);
      var parent = parentElementOf.call(cur);
      if (parent === null) return null;     // not under body (cannot happen in HTML)
      anchor = anchorSelector(parent);
      cur = parent;
    }
    var steps = [];
    for (var i = 0; i < chain.length; i++) steps.push(step(chain[i]));

    var sel = anchor + ' ' + steps[0];
    if (unique(sel, el)) return result(sel, el);
    var full = function () {
      return anchor + ' > ' + steps.slice().reverse().join(' > ');
    };
    sel = full();
    if (unique(sel, el)) return result(sel, el);
    for (i = 0; i < chain.length; i++) {
      var nth = nthIfNeeded(chain[i], steps[i]);
      if (nth === '') continue;
      steps[i] += nth;
      sel = full();
      if (unique(sel, el)) return result(sel, el);
    }
    return null;
  }

  function visible(el) {
    var rects = clientRectsOf.call(el);
    if (rects.length === 0) return false;   // display:none here or above, or not rendered
    var cs = styleOf(el);
    if (cs.visibility === 'hidden' || cs.visibility === 'collapse') return false;
    for (var i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return true;
    return false;
  }

  /**
   * The row of the last capture of the one element `selector` matches, when it is visible
   * and holds at least `minChars` characters of text; else -1 (no match, several, hidden,
   * too short, an invalid selector, or an element the capture does not hold).
   */
  function resolve(selector, minChars) {
    if (typeof selector !== 'string' || selector.trim() === '') return -1;
    var list = queryAll(selector);
    if (list === null || list.length !== 1) return -1;
    var el = list[0];
    if (!visible(el)) return -1;
    var min = typeof minChars === 'number' && isFinite(minChars) ? minChars : 0;
    if (textLength(el) < min) return -1;
    return nodes().indexOf(el);
  }

  var g = globalThis;
  if (typeof g.__pith !== 'object' || g.__pith === null) {
    Object.defineProperty(g, '__pith', { value: {}, writable: true, configurable: true, enumerable: false });
  }
  g.__pith.locate = { selectorFor: selectorFor, resolve: resolve };
})();
