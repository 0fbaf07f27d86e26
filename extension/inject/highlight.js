/* Pith highlight: outline the selected element in the page, dim the blocks the reader leaves out, with grow / shrink / edit / reader / close controls.
 *
 * A classic script injected with scripting.executeScript into the extension's isolated
 * world, right before capture.js. Safe to inject any number of times: the first run
 * installs globalThis.__pith.overlay and later runs return at once. The background then
 * calls __pith.overlay.show(sel) with the tab's selection {node, path, tag, doc, blocks,
 * include, exclude, offerRemember}, which looks the element up in __pith.nodes (left there
 * by capture.js: row → Element) and draws:
 *
 *   <pith-overlay id="pith-overlay" data-pith-node="7" data-pith-path="[1,1]" data-pith-tag="article"
 *                 data-pith-veils="12" data-pith-capped="0" data-pith-editing="false">
 *     #shadow-root (closed)
 *       <div part="box">            fixed, follows the element's getBoundingClientRect()
 *       <div part="veils">          fixed on the box, clipping what it holds to it:
 *         <div part="veil" data-row="23" title="…">   a block left out (hatched, clickable)
 *         <div part="quiet">                          a left-out text run of a `quiet` row
 *       <div part="focus" data-row="…">   the ring around the block the keys act on
 *       <div part="thread">         on request (C), one <div part="thread-root" data-row="…">
 *                                   outline per top row of the comment thread under the post
 *       <div part="bar">            <span part="label"> and buttons part="grow|shrink|edit|comments|remember|reader|close"
 *       <div part="toast">          messages, e.g. errors the background reports
 *
 * appended to document.documentElement. The page's own DOM and styles are never touched.
 *
 * Nothing of Pith's covers the text of the selection. The outline is drawn outside the
 * element's box (outline-offset 0), the tint under it is see-through. The bar goes where
 * it hides no text (see placeBar): outside the box first — above it, below it, beside it —
 * and, when the box fills the window, in a spot inside it with no text under it; only a
 * window full of the selection's text leaves it over text, then over the least of it.
 * Its label says what is selected in a reader's words: the block's first heading (or
 * "Whole page" for <body>) and its word count, "“How tide tables are made” · 312 words".
 *
 * What you see is what the reader gets. `blocks` is the host's block stage for the node
 * (host/PROTOCOL.md `select`): `kept` block rows, `drop` rows (left out with their
 * subtree) and `quiet` rows (their own text runs left out). Every `drop` row gets a veil
 * drawn from its element's client rect; `quiet` text runs get a lighter, unclickable veil
 * from their Range rect. `include` / `exclude` are the reader's own decisions (rows; the
 * host's `clean` applies them over the model: every block inside an `include` row is
 * kept, then every block inside an `exclude` row is left out). Toggling:
 *   - a click on a veil takes its block in (an `include` row, or an `exclude` undone);
 *   - in edit mode (the Edit button, or E), a click on the page inside the outline leaves
 *     out the innermost kept block around the click (an `exclude` row, or an `include`
 *     undone), or takes in a dimmed block whose veil is not drawn; the click does not
 *     reach the page. Outside edit mode clicks on kept content are the page's: links the
 *     reader wants to follow still work. (Alt+click was the other choice; it downloads a
 *     link in Chromium and is the window manager's move gesture on many Linux desktops.)
 *     While editing, the ring follows the pointer to show which block a click toggles;
 *   - keys: J / K ring the next / previous block (kept or dimmed, in document order, the
 *     selected element itself excepted), X toggles the ringed one, E toggles edit mode.
 * Veils update at once, in the page; the new lists go to the background as
 * {type: "pith:blocks", doc, node, include, exclude}, which keeps them in the tab's
 * selection for the reader. The selected element itself cannot be left out (the reader
 * would be empty). The lists start empty after every grow or shrink (a new element has
 * new blocks: decisions about the old one's do not carry over), and a show() of the same
 * node of the same capture keeps the overlay's own lists (they are the newest).
 *
 * The comment thread. `sel.comments` ({roots: [row…]} or null: the host's `comments.roots`,
 * kept by the background with the selection) are the top rows of the thread found under the
 * post, which the reader shows apart. The Comments button (there only when the page has a
 * thread), or C, outlines them (dashed, teal: apart from the orange selection and the blue
 * ring) and scrolls the first into view when none is on screen; again hides them. C on a
 * page without a thread says so in a toast.
 * The host element's data-pith-thread is "shown", "hidden" or "none". All in the page: no
 * message to the background.
 *
 * Other keys while it is up: + or = grow, - shrink, r reader, s remember (only while the
 * Remember button shows: after a grow or shrink, the background passes offerRemember),
 * Escape closes (removes the overlay and every listener it added). Buttons and keys send
 * {type: "pith:command", command} to the background, which asks the host and calls show()
 * again. Styles are set through the CSSOM (never markup, so a page's CSP cannot block them)
 * and with !important on the host element; text is set with textContent only: nothing
 * from the page is ever parsed as HTML.
 *
 * Only the person's own input acts. The page shares the DOM with this script (not its
 * globals): its scripts can dispatch any event, but those are untrusted, and every key,
 * click and pointer handler here ignores an event whose isTrusted is false. The shadow
 * roots are closed, so no page script can reach a button, relabel it or read the label.
 * No DOM event or attribute is listened to or read back as an instruction: an overlay left
 * by a copy of this script from before an extension reload (another isolated world) is
 * removed from the DOM by the new copy's first overlay, and the old copy, finding its host
 * gone, closes itself at its next event. A page can remove or cover the overlay (it owns
 * its DOM), which only closes or hides it; it cannot grow, shrink, save a rule, open the
 * reader or change a block decision. SECURITY.md, "The outline in the page".
 */
(function pithHighlight() {
  'use strict';

  var g = globalThis;
  if (typeof g.__pith !== 'object' || g.__pith === null) {
    Object.defineProperty(g, '__pith', { value: {}, writable: true, configurable: true, enumerable: false });
  }
  if (g.__pith.overlay) return;          // installed by an earlier injection

  var api = g.browser || g.chrome;
  var Z_TOP = '2147483647';              // above anything a page stacks
  var ACCENT = '#f08c00';                // Pith orange, visible on light and dark pages
  var OUTLINE = '3px solid ' + ACCENT;
  var GAP = 6;                           // px between the bar and the box / the viewport edge
  var OUTLINE_PX = 3;                    // the outline's width, drawn outside the box
  // Inside spots for the bar are tried this far apart along the window's height: a line of
  // text is taller than half of it, so a free spot is not stepped over.
  var SCAN_STEP = 8;
  // Text nodes looked at per placement, so a huge page still places the bar within a frame;
  // only elements on screen are walked, which on real pages stays far below this.
  var MAX_TEXT_NODES = 5000;
  // The label's heading is cut at this many characters ("…" added): the bar stays one line.
  var LABEL_HEADING_CHARS = 48;
  // Never looked into for text: not rendered, or Pith's own.
  var NO_TEXT = { script: true, style: true, noscript: true, template: true, 'pith-overlay': true, 'pith-toast': true };
  var WORD_RE = /[\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{N}\p{M}]+)*/gu;
  // The label counts the words of at most this many characters of the selection ("+" after
  // the count when there are more): counting a 50 MB text node's 11 million words held the
  // outline back by a second in Chromium, and its innerText by more in Firefox.
  var MAX_COUNTED_CHARS = 1 << 20;
  var TOAST_MS = 9000;                   // long enough to read two sentences
  var TOAST_COLORS = { error: '#7f1d1d', info: '#1f2a37' };   // red for failures, the bar's slate otherwise
  var FONT = '13px/1.3 system-ui, -apple-system, "Segoe UI", sans-serif';
  var KEYS = {
    '+': 'grow', '=': 'grow', '-': 'shrink', r: 'reader', R: 'reader', s: 'remember', S: 'remember',
    c: 'comments', C: 'comments', Escape: 'close'
  };
  // Keys handled in the page (the blocks of the selection), only while it has blocks.
  var BLOCK_KEYS = { j: 'next', J: 'next', k: 'prev', K: 'prev', x: 'toggle', X: 'toggle', e: 'edit', E: 'edit' };
  var BUTTONS = [
    ['grow', '+', 'Grow the selection to its parent block (+)'],
    ['shrink', '\u2212', 'Shrink the selection to its best child block (\u2212)'],
    ['edit', 'Edit', 'Edit blocks (E): a click on the page inside the outline leaves that block out ' +
      'of the reader or takes it in; a click on a dimmed block always takes it in. ' +
      'J / K ring the next / previous block, X toggles it'],
    ['comments', 'Comments', 'Outline the comment thread under the post (C); again to hide it'],
    ['remember', 'Remember', 'Always choose this block on this site (S)'],
    ['reader', 'Reader', 'Open the selection in the reader view (R)'],
    ['close', '\u00d7', 'Close Pith (Esc)']
  ];
  var VEIL_TITLE = 'Left out of the reader. Click to take it in (X when ringed)';
  // Veils over the blocks left out. Each is re-placed from its block's client rect on every
  // scroll or resize frame, one layout read per veil: a few hundred stay well inside a
  // frame on a slow machine, and nobody tells more hatched boxes apart. Boxes of zero size
  // (hidden rows) are skipped; past the cap the largest are drawn, the host element's
  // data-pith-capped says how many were not.
  var MAX_VEILS = 300;
  var VEIL_BG = 'repeating-linear-gradient(135deg, rgba(250, 250, 250, 0.78) 0px, ' +
    'rgba(250, 250, 250, 0.78) 6px, rgba(110, 110, 110, 0.45) 6px, rgba(110, 110, 110, 0.45) 8px)';
  var QUIET_BG = 'rgba(250, 250, 250, 0.7)';
  var FOCUS_RING = '2px dashed #2563eb';   // blue: apart from the orange outline on any page
  var THREAD_OUTLINE = '3px dashed #0d9488';   // teal: apart from the orange outline and the blue ring
  var NO_THREAD = 'Pith found no comment thread under the post on this page.';
  // A page click in edit mode: these events inside the outline are kept from the page.
  var EDIT_EVENTS = ['click', 'auxclick', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup'];

  var cur = null;                        // the overlay on screen: {host, root, box, veils, focus, bar, label, toast, el, blocks, editing, raf, timer}
  var loose = null;                      // a toast shown without an overlay: {host, toast, timer}

  function style(el, props) {
    for (var k in props) el.style.setProperty(k, props[k], 'important');
  }

  function part(tag, name) {
    var el = document.createElement(tag);
    el.setAttribute('part', name);
    return el;
  }

  function makeToast() {
    var t = part('div', 'toast');
    t.setAttribute('role', 'status');
    t.setAttribute('aria-live', 'polite');
    style(t, {
      position: 'fixed', left: '50%', bottom: '16px', transform: 'translateX(-50%)',
      'max-width': 'min(40em, calc(100vw - 32px))', 'box-sizing': 'border-box',
      padding: '10px 14px', 'border-radius': '6px', background: '#7f1d1d', color: '#fff',
      font: FONT, 'box-shadow': '0 2px 10px rgba(0,0,0,.35)', 'pointer-events': 'auto',
      cursor: 'pointer', display: 'none', 'white-space': 'pre-wrap', 'z-index': Z_TOP
    });
    t.title = 'Click to dismiss';
    return t;
  }

  function hostElement(name) {
    var host = document.createElement(name);
    host.id = name;
    style(host, {
      all: 'initial', display: 'block', position: 'fixed', top: '0', left: '0',
      width: '0', height: '0', 'z-index': Z_TOP, 'pointer-events': 'none'
    });
    return host;
  }

  function build() {
    var host = hostElement('pith-overlay');
    var root = host.attachShadow({ mode: 'closed' });   // no page script reaches in
    var box = part('div', 'box');
    style(box, {
      position: 'fixed', 'box-sizing': 'border-box', margin: '0', padding: '0', border: '0',
      outline: OUTLINE, 'outline-offset': '0', background: 'rgba(240, 140, 0, 0.07)',
      'border-radius': '2px', 'pointer-events': 'none', left: '0', top: '0', width: '0', height: '0'
    });
    var bar = part('div', 'bar');
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', 'Pith selection');
    style(bar, {
      position: 'fixed', display: 'flex', 'align-items': 'center', gap: '4px', padding: '4px',
      'box-sizing': 'border-box', 'max-width': 'calc(100vw - ' + (2 * GAP) + 'px)',   // a narrow window cuts the label, not the buttons
      background: '#1f2a37', color: '#fff', font: FONT, 'border-radius': '6px',
      'box-shadow': '0 2px 10px rgba(0,0,0,.35)', 'pointer-events': 'auto', left: '0', top: '0'
    });
    var label = part('span', 'label');
    style(label, {
      padding: '0 6px', color: '#fcd9a8', 'white-space': 'nowrap', overflow: 'hidden',
      'text-overflow': 'ellipsis', 'max-width': '32em', 'min-width': '0', flex: '0 1 auto'
    });
    bar.appendChild(label);
    for (var i = 0; i < BUTTONS.length; i++) {
      var b = part('button', BUTTONS[i][0]);
      b.type = 'button';
      b.textContent = BUTTONS[i][1];
      b.setAttribute('aria-label', BUTTONS[i][2]);
      b.title = BUTTONS[i][2];
      b.dataset.command = BUTTONS[i][0];
      style(b, {
        font: FONT, 'font-weight': '600', 'min-width': '28px', height: '26px', padding: '0 8px', flex: '0 0 auto',
        margin: '0', border: '0', 'border-radius': '4px', background: '#374151', color: '#fff',
        cursor: 'pointer'
      });
      bar.appendChild(b);
    }
    var veils = part('div', 'veils');
    style(veils, {
      position: 'fixed', overflow: 'hidden', margin: '0', padding: '0', border: '0',
      'pointer-events': 'none', left: '0', top: '0', width: '0', height: '0'
    });
    var focus = part('div', 'focus');
    style(focus, {
      position: 'fixed', 'box-sizing': 'border-box', margin: '0', padding: '0', border: '0',
      outline: FOCUS_RING, 'outline-offset': '1px', 'pointer-events': 'none', display: 'none',
      left: '0', top: '0', width: '0', height: '0'
    });
    var thread = part('div', 'thread');
    style(thread, { position: 'fixed', margin: '0', padding: '0', border: '0', 'pointer-events': 'none', left: '0', top: '0' });
    var toast = makeToast();
    root.appendChild(box);
    root.appendChild(veils);
    root.appendChild(focus);
    root.appendChild(thread);
    root.appendChild(bar);
    root.appendChild(toast);
    root.addEventListener('click', onClick);
    // Keep the page's own handlers from seeing Pith's pointer events as theirs.
    root.addEventListener('mousedown', stop);
    root.addEventListener('pointerdown', stop);
    var remember = bar.querySelector('[part="remember"]');
    remember.style.setProperty('display', 'none', 'important');
    var edit = bar.querySelector('[part="edit"]');
    edit.setAttribute('aria-pressed', 'false');
    host.setAttribute('data-pith-editing', 'false');
    var comments = bar.querySelector('[part="comments"]');
    comments.setAttribute('aria-pressed', 'false');
    return {
      host: host, root: root, box: box, veils: veils, focus: focus, bar: bar, label: label,
      toast: toast, remember: remember, edit: edit, el: null, blocks: null, editing: false,
      thread: thread, comments: comments, threadDoc: null, threadRoots: [], threadShown: false, threadBoxes: [],
      raf: 0, timer: 0
    };
  }

  function stop(e) {
    e.stopPropagation();
  }

  /** The overlay is on the page: false (after closing quietly) once its host was taken out
   * of the DOM, by a newer copy of this script or by the page. */
  function live() {
    if (cur && !cur.host.isConnected) close({ notify: false });
    return cur !== null;
  }

  function onClick(e) {
    e.stopPropagation();
    if (!e.isTrusted || !live()) return;        // a page script's click: not the person's
    var t = e.target;
    if (cur && t === cur.toast) {
      hideToast(cur);
      return;
    }
    var row = t && t.dataset ? t.dataset.row : undefined;
    if (row !== undefined) {                   // a veil: take its block in
      e.preventDefault();
      toggle(Number(row));
      return;
    }
    var command = t && t.dataset ? t.dataset.command : undefined;
    if (!command) return;
    e.preventDefault();
    if (command === 'close') close({ notify: true });
    else if (command === 'edit') setEditing(!cur.editing);
    else if (command === 'comments') toggleThread();
    else send(command);
  }

  function editable(el) {
    if (!el || el.nodeType !== 1) return false;
    var name = el.localName;
    return name === 'input' || name === 'textarea' || name === 'select' || el.isContentEditable;
  }

  function onKey(e) {
    if (!e.isTrusted || !live()) return;        // a page script's key: not the person's
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    var own = Object.prototype.hasOwnProperty;
    var local = cur.blocks !== null && own.call(BLOCK_KEYS, e.key);
    if (!local && !own.call(KEYS, e.key)) return;
    var command = local ? BLOCK_KEYS[e.key] : KEYS[e.key];
    if (command === 'remember' && cur.remember.style.getPropertyValue('display') === 'none') return;
    if (command === 'toggle' && cur.blocks.focus < 0) return;
    var path = typeof e.composedPath === 'function' ? e.composedPath() : [];
    if (editable(path.length ? path[0] : e.target)) return;
    e.preventDefault();
    e.stopPropagation();
    if (command === 'close') close({ notify: true });
    else if (command === 'next' || command === 'prev') moveFocus(command === 'next' ? 1 : -1);
    else if (command === 'toggle') toggle(cur.blocks.focus);
    else if (command === 'edit') setEditing(!cur.editing);
    else if (command === 'comments') toggleThread();
    else send(command);
  }

  function schedule() {
    if (!cur || cur.raf) return;
    cur.raf = requestAnimationFrame(function () {
      if (!cur) return;
      cur.raf = 0;
      place();
    });
  }

  /** Put the box on the element's current rectangle, the bar where it hides no text. */
  function place() {
    var r = cur.el.getBoundingClientRect();
    style(cur.box, { left: r.left + 'px', top: r.top + 'px', width: r.width + 'px', height: r.height + 'px' });
    placeBar(r);
    placeVeils(r);
    placeFocus();
    placeThread();
    return r;
  }

  // --- the bar's place and label ------------------------------------------------------------

  function overlap(a, b) {
    var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0 ? w * h : 0;
  }

  function rect(left, top, width, height) {
    return { left: left, top: top, right: left + width, bottom: top + height };
  }

  /** The client rects of the text on screen: {sel: [...] of the selection, other: [...]}.
   * Elements wholly off screen are skipped with what they hold (a float's zero-height
   * parent is not: only boxes with an area are judged). */
  function textOnScreen(vw, vh) {
    var out = { sel: [], other: [] };
    var budget = MAX_TEXT_NODES;
    var range = document.createRange();
    // An explicit stack, not recursion: pages nest 20,000 deep ("too much recursion" in
    // Firefox). Each entry is [parent node, inside the selection]; a parent's element
    // children are pushed in reverse so they come off in document order.
    var stack = document.body
      ? [[document.body, cur.el === document.body || cur.el === document.documentElement]] : [];
    while (stack.length && budget > 0) {
      var top = stack.pop(), inSel = top[1], later = [];
      for (var n = top[0].firstChild; n && budget > 0; n = n.nextSibling) {
        if (n.nodeType === 3) {
          if (!/\S/.test(n.data)) continue;
          budget -= 1;
          range.selectNodeContents(n);
          var rects = range.getClientRects();
          for (var i = 0; i < rects.length; i++) {
            var t = rects[i];
            if (t.width > 0 && t.height > 0 && t.bottom > 0 && t.top < vh && t.right > 0 && t.left < vw) {
              (inSel ? out.sel : out.other).push(t);
            }
          }
        } else if (n.nodeType === 1 && !NO_TEXT[n.localName]) {
          var b = n.getBoundingClientRect();
          var off = b.width > 0 && b.height > 0 && (b.bottom < 0 || b.top > vh || b.right < 0 || b.left > vw);
          var mine = inSel || n === cur.el;
          if (off && n !== cur.el) continue;
          if (n.shadowRoot) later.push([n.shadowRoot, mine]);
          later.push([n, mine]);
        }
      }
      for (var k = later.length - 1; k >= 0; k--) stack.push(later[k]);
    }
    return out;
  }

  /** Text area under `box`: [of the selection, of the rest of the page]. */
  function textUnder(box, text) {
    var grown = rect(box.left - 2, box.top - 2, box.right - box.left + 4, box.bottom - box.top + 4);
    var cost = [0, 0];
    for (var i = 0; i < text.sel.length; i++) cost[0] += overlap(grown, text.sel[i]);
    for (var k = 0; k < text.other.length; k++) cost[1] += overlap(grown, text.other[k]);
    return cost;
  }

  /**
   * Where the bar goes, for the box `r`: the first spot, in this order, that is on screen
   * and covers no text — above the box (its right end, then its left), below it, to its
   * right, to its left, then inside it along its right edge, the window's right edge, the
   * box's left edge and the window's left edge, top to bottom. Failing that, the first spot
   * that covers no text of the selection (it covers some of the page's), then the spot
   * covering the least of it. The host element's data-pith-bar says which side was taken.
   */
  function placeBar(r) {
    var vw = document.documentElement.clientWidth || window.innerWidth;
    var vh = window.innerHeight;
    var bw = cur.bar.offsetWidth, bh = cur.bar.offsetHeight;
    var clampX = function (x) { return Math.max(GAP, Math.min(x, vw - bw - GAP)); };
    var clampY = function (y) { return Math.max(GAP, Math.min(y, vh - bh - GAP)); };
    var ring = OUTLINE_PX + GAP;
    var spots = [
      ['above', clampX(r.right - bw), r.top - ring - bh], ['above', clampX(r.left), r.top - ring - bh],
      ['below', clampX(r.right - bw), r.bottom + ring], ['below', clampX(r.left), r.bottom + ring],
      ['right', r.right + ring, clampY(r.top)], ['left', r.left - ring - bw, clampY(r.top)]
    ];
    var xs = [clampX(r.right - bw - GAP), vw - bw - GAP, clampX(r.left + GAP), GAP];
    var y0 = clampY(r.top + GAP), y1 = clampY(Math.min(r.bottom, vh) - bh - GAP);
    for (var xi = 0; xi < xs.length; xi++) {
      for (var y = y0; y <= y1; y += SCAN_STEP) spots.push(['inside', xs[xi], y]);
    }
    var frame = rect(r.left - OUTLINE_PX, r.top - OUTLINE_PX, r.width + 2 * OUTLINE_PX, r.height + 2 * OUTLINE_PX);
    var text = null, free = null, clearOfSel = null, least = null, leastCost = Infinity;
    for (var i = 0; i < spots.length && free === null; i++) {
      var b = rect(spots[i][1], spots[i][2], bw, bh);
      b.side = spots[i][0];
      if (b.left < 0 || b.top < 0 || b.right > vw || b.bottom > vh) continue;
      if (b.side !== 'inside' && overlap(b, frame) > 0) continue;
      if (text === null) text = textOnScreen(vw, vh);
      var cost = textUnder(b, text);
      if (cost[0] === 0 && cost[1] === 0) free = b;
      else if (cost[0] === 0 && clearOfSel === null) clearOfSel = b;
      else if (cost[0] < leastCost) {
        leastCost = cost[0];
        least = b;
      }
    }
    var best = free || clearOfSel || least;
    if (best === null) {                     // a window smaller than the bar: keep it on screen
      best = rect(clampX(r.right - bw), clampY(r.top - ring - bh), bw, bh);
      best.side = 'inside';
    }
    style(cur.bar, { left: best.left + 'px', top: best.top + 'px' });
    cur.host.setAttribute('data-pith-bar', best.side);
  }

  /** The bar's label: the block's first heading (or "Whole page") and its word count. */
  function describe(el) {
    var name = '';
    if (el === document.body || el === document.documentElement) {
      name = 'Whole page';
    } else {
      var heads = [el].concat(Array.prototype.slice.call(el.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')));
      for (var i = 0; i < heads.length && !name; i++) {
        var h = heads[i];
        if (i === 0 && !/^h[1-6]$/.test(h.localName) && h.getAttribute('role') !== 'heading') continue;
        var t = (h.textContent || '').replace(/\s+/g, ' ').trim();
        if (t.length > LABEL_HEADING_CHARS) {       // cut at a word's end when one is near
          var cut = t.slice(0, LABEL_HEADING_CHARS - 1), word = cut.replace(/\s+\S*$/, '');
          t = (word.length >= LABEL_HEADING_CHARS / 2 ? word : cut).trim() + '\u2026';
        }
        if (t) name = '\u201c' + t + '\u201d';
      }
      if (!name) name = 'Selected text';
    }
    // innerText leaves hidden text out but lays the text out to do it: a huge selection
    // counts the start of its textContent instead
    var raw = el.textContent || '', more = raw.length > MAX_COUNTED_CHARS;
    var counted = more ? raw.slice(0, MAX_COUNTED_CHARS) : (el.innerText || raw);
    var words = (counted.match(WORD_RE) || []).length;
    return name + ' \u00b7 ' + words.toLocaleString() + (more ? '+' : '') +
      (words === 1 && !more ? ' word' : ' words');
  }

  // --- the comment thread, outlined on request ---------------------------------------------

  /** cur's thread roots for `sel` (its `comments.roots` rows); a show of another capture
   * starts hidden, a show of the same one (grow, shrink) keeps what the person chose. */
  function setThread(sel) {
    var c = sel.comments;
    var list = c && typeof c === 'object' ? rows(c.roots) : [];
    if (cur.threadDoc !== sel.doc) cur.threadShown = false;
    cur.threadDoc = sel.doc;
    cur.threadRoots = list;
    renderThread();
  }

  /** (Re)build one outline per connected root while shown; the host element's data-pith-thread. */
  function renderThread() {
    var layer = cur.thread;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    cur.threadBoxes = [];
    var els = cur.threadRoots.map(elementAt).filter(Boolean);
    if (cur.threadShown && els.length) {
      els.forEach(function (el, i) {
        var b = part('div', 'thread-root');
        b.dataset.row = String(cur.threadRoots[i]);
        style(b, {
          position: 'fixed', 'box-sizing': 'border-box', margin: '0', padding: '0', border: '0',
          outline: THREAD_OUTLINE, 'outline-offset': '2px', background: 'rgba(13, 148, 136, 0.06)',
          'pointer-events': 'none', left: '0', top: '0', width: '0', height: '0'
        });
        layer.appendChild(b);
        cur.threadBoxes.push({ box: b, el: el });
      });
    }
    if (!els.length) cur.threadShown = false;
    cur.comments.style.setProperty('display', els.length ? 'inline-block' : 'none', 'important');
    cur.comments.setAttribute('aria-pressed', String(cur.threadShown));
    cur.comments.style.setProperty('background', cur.threadShown ? '#0d9488' : '#374151', 'important');
    cur.host.setAttribute('data-pith-thread', !els.length ? 'none' : (cur.threadShown ? 'shown' : 'hidden'));
  }

  function placeThread() {
    for (var i = 0; i < cur.threadBoxes.length; i++) {
      var r = cur.threadBoxes[i].el.getBoundingClientRect();
      style(cur.threadBoxes[i].box, { left: r.left + 'px', top: r.top + 'px', width: r.width + 'px', height: r.height + 'px' });
    }
  }

  /** The Comments button and C: show or hide the thread's outline; say so when there is none. */
  function toggleThread() {
    if (!cur.threadRoots.map(elementAt).some(Boolean)) {
      renderThread();
      toast(NO_THREAD, 'info');
      return;
    }
    cur.threadShown = !cur.threadShown;
    renderThread();
    if (cur.threadShown) {
      var vh = window.innerHeight;
      var onScreen = cur.threadBoxes.some(function (t) {
        var r = t.el.getBoundingClientRect();
        return r.bottom > 0 && r.top < vh;
      });
      if (!onScreen) cur.threadBoxes[0].el.scrollIntoView({ block: 'start', inline: 'nearest' });
    }
    place();
  }

  // --- blocks: veils, ring, toggling ------------------------------------------------------

  /** The parent of `n` in capture.js's flat tree (slots, shadow hosts, same-origin frames). */
  function flatParent(n) {
    if (n.assignedSlot) return n.assignedSlot;
    var p = n.parentNode;
    if (!p) return null;
    if (p.nodeType === 11) return p.host || null;            // a shadow root
    if (p.nodeType === 9) {                                   // a frame's document
      try {
        return p.defaultView ? p.defaultView.frameElement : null;
      } catch (e) {
        return null;
      }
    }
    return p;
  }

  /** Whether `el` (or, with `strict`, one of its ancestors only) is in the Set `els`,
   * looking no higher than the outlined element. */
  function under(el, els, strict) {
    if (els.size === 0) return false;
    for (var n = strict ? flatParent(el) : el; n; n = flatParent(n)) {
      if (els.has(n)) return true;
      if (n === cur.el) return false;
    }
    return false;
  }

  function elementAt(row) {
    var nodes = g.__pith.nodes;
    var el = nodes && Number.isInteger(row) ? nodes[row] : undefined;
    return el && el.nodeType === 1 && el.isConnected ? el : null;
  }

  /** The rows of `list` (non-negative integers), once each. */
  function rows(list) {
    var out = [], seen = new Set();
    if (!Array.isArray(list)) return out;
    for (var i = 0; i < list.length; i++) {
      var r = list[i];
      if (Number.isInteger(r) && r >= 0 && !seen.has(r)) {
        seen.add(r);
        out.push(r);
      }
    }
    return out;
  }

  function elementSet(list) {
    var out = new Set();
    for (var i = 0; i < list.length; i++) {
      var el = elementAt(list[i]);
      if (el) out.add(el);
    }
    return out;
  }

  /**
   * What the page shows of `b` (the host's blocks with the reader's include / exclude, as
   * the host's `clean` applies them): b.units, the blocks one can ring and toggle in
   * document order ({row, el, dropped}), and b.quietEls, the rows whose own text is out.
   */
  function derive(b) {
    var inc = elementSet(b.include), exc = elementSet(b.exclude);
    var units = [], seen = new Set();
    var add = function (row, dropped) {
      if (seen.has(row) || row === b.node) return;
      var el = elementAt(row);
      if (!el) return;
      seen.add(row);
      units.push({ row: row, el: el, dropped: dropped });
    };
    var excluded = new Set(b.exclude);
    b.exclude.forEach(function (row) {
      var el = elementAt(row);
      if (el && !under(el, exc, true)) add(row, true);
    });
    b.model.kept.concat(b.include).forEach(function (row) {
      var el = elementAt(row);
      if (el && !under(el, exc, false)) add(row, false);
    });
    b.model.drop.forEach(function (row) {
      var el = elementAt(row);
      if (el && !excluded.has(row) && !under(el, inc, false) && !under(el, exc, false)) add(row, true);
    });
    units.sort(function (a, c) { return a.row - c.row; });
    b.units = units;
    b.byRow = new Map();
    b.byEl = new Map();
    units.forEach(function (u) {
      b.byRow.set(u.row, u);
      b.byEl.set(u.el, u);
    });
    b.quietEls = [];
    b.model.quiet.forEach(function (row) {
      var el = elementAt(row);
      if (el && !under(el, exc, false) && !under(el, inc, false)) b.quietEls.push(el);
    });
    if (!b.byRow.has(b.focus)) b.focus = -1;
  }

  /** The non-blank text nodes that are direct children of `el`. */
  function ownTexts(el) {
    var out = [];
    for (var n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && /\S/.test(n.data)) out.push(n);
    }
    return out;
  }

  function area(r) {
    return r.width * r.height;
  }

  /** (Re)build the veils of cur.blocks: the dropped units and the quiet rows' own text. */
  function renderVeils() {
    var layer = cur.veils;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    cur.veilList = [];
    var b = cur.blocks;
    var capped = 0;
    if (b !== null) {
      var wanted = [];
      b.units.forEach(function (u) {
        if (!u.dropped) return;
        var r = u.el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) wanted.push({ row: u.row, target: u.el, size: area(r) });
      });
      b.quietEls.forEach(function (el) {
        ownTexts(el).forEach(function (t) {
          var range = document.createRange();
          range.selectNodeContents(t);
          var r = range.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) wanted.push({ row: -1, target: range, size: area(r) });
        });
      });
      if (wanted.length > MAX_VEILS) {
        wanted.sort(function (a, c) { return c.size - a.size; });
        capped = wanted.length - MAX_VEILS;
        wanted.length = MAX_VEILS;
      }
      wanted.forEach(function (w) {
        var v = part('div', w.row >= 0 ? 'veil' : 'quiet');
        style(v, {
          position: 'absolute', 'box-sizing': 'border-box', margin: '0', padding: '0', border: '0',
          background: w.row >= 0 ? VEIL_BG : QUIET_BG,
          'pointer-events': w.row >= 0 ? 'auto' : 'none', cursor: w.row >= 0 ? 'pointer' : 'auto',
          left: '0', top: '0', width: '0', height: '0'
        });
        if (w.row >= 0) {
          v.dataset.row = String(w.row);
          v.title = VEIL_TITLE;
        }
        layer.appendChild(v);
        cur.veilList.push({ veil: v, target: w.target });
      });
    }
    cur.host.setAttribute('data-pith-veils', String(cur.veilList.length));
    cur.host.setAttribute('data-pith-capped', String(capped));
    var out = b === null ? 0 : b.units.filter(function (u) { return u.dropped; }).length;
    cur.label.textContent = cur.described + (out > 0 ? ' \u00b7 ' + out + ' left out' : '');
    cur.label.title = cur.described + (b === null ? '' : '. Blocks dimmed here are left out of the reader' +
      (b.truncated ? ' (the host listed only part of them)' : ''));
  }

  /** Put the veils layer on the box `box` and every veil on its block's current rect. */
  function placeVeils(box) {
    style(cur.veils, { left: box.left + 'px', top: box.top + 'px', width: box.width + 'px', height: box.height + 'px' });
    var list = cur.veilList || [];
    for (var i = 0; i < list.length; i++) {
      var r = list[i].target.getBoundingClientRect();
      style(list[i].veil, {
        left: (r.left - box.left) + 'px', top: (r.top - box.top) + 'px',
        width: r.width + 'px', height: r.height + 'px'
      });
    }
  }

  function placeFocus() {
    var b = cur.blocks;
    var u = b !== null && b.focus >= 0 ? b.byRow.get(b.focus) : null;
    if (!u) {
      cur.focus.style.setProperty('display', 'none', 'important');
      cur.focus.removeAttribute('data-row');
      return;
    }
    var r = u.el.getBoundingClientRect();
    cur.focus.dataset.row = String(u.row);
    cur.focus.dataset.dropped = String(u.dropped);
    style(cur.focus, {
      display: 'block', left: r.left + 'px', top: r.top + 'px', width: r.width + 'px', height: r.height + 'px'
    });
  }

  /** Ring the next (`step` 1) or previous (-1) block, scrolled into view. */
  function moveFocus(step) {
    var b = cur.blocks, units = b.units;
    if (!units.length) return;
    var at = -1;
    for (var i = 0; i < units.length; i++) if (units[i].row === b.focus) at = i;
    at = at < 0 ? (step > 0 ? 0 : units.length - 1) : (at + step + units.length) % units.length;
    b.focus = units[at].row;
    units[at].el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    place();
  }

  /** Take the block of `row` in, or leave it out; redraw at once and tell the background. */
  function toggle(row) {
    var b = cur && cur.blocks;
    var u = b ? b.byRow.get(row) : null;
    if (!u) return;
    var drop = function (list, value) { return list.filter(function (r) { return r !== value; }); };
    if (u.dropped) {
      if (b.exclude.indexOf(row) >= 0) b.exclude = drop(b.exclude, row);
      else b.include.push(row);
    } else if (b.include.indexOf(row) >= 0) {
      b.include = drop(b.include, row);
    } else {
      var inside = new Set([u.el]);
      b.include = b.include.filter(function (r) {   // dead once their ancestor is out
        var el = elementAt(r);
        return !el || !under(el, inside, true);
      });
      b.exclude.push(row);
    }
    b.focus = row;
    derive(b);
    renderVeils();
    place();
    sendBlocks(b);
  }

  function sendBlocks(b) {
    var msg = { type: 'pith:blocks', doc: b.doc, node: b.node, include: b.include.slice(), exclude: b.exclude.slice() };
    try {
      var p = api.runtime.sendMessage(msg);
      if (p && typeof p.then === 'function') {
        p.then(function (reply) {
          if (reply && reply.ok === false && reply.error) toast(reply.error.message);
        }, lost);
      }
    } catch (e) {
      lost(e);
    }
  }

  function setEditing(on) {
    cur.editing = !!on && cur.blocks !== null;
    cur.edit.setAttribute('aria-pressed', String(cur.editing));
    cur.edit.style.setProperty('background', cur.editing ? '#2563eb' : '#374151', 'important');
    cur.host.setAttribute('data-pith-editing', String(cur.editing));
    cur.box.style.setProperty('outline-style', cur.editing ? 'dashed' : 'solid', 'important');
  }

  /** The innermost block of the outline on the event's path, or null; undefined when the
   * event is not inside the outlined element (or is on Pith's own elements). */
  function unitOf(e) {
    var path = typeof e.composedPath === 'function' ? e.composedPath() : [];
    if (!cur || cur.blocks === null || path.indexOf(cur.el) < 0 || path.indexOf(cur.host) >= 0) return undefined;
    for (var i = 0; i < path.length && path[i] !== cur.el; i++) {
      var u = cur.blocks.byEl.get(path[i]);
      if (u) return u;
    }
    return null;
  }

  /** Edit mode: pointer events inside the outline are Pith's; a primary click toggles. */
  function onPagePointer(e) {
    if (!e.isTrusted || !live() || !cur.editing) return;
    var u = unitOf(e);
    if (u === undefined) return;
    e.stopPropagation();
    if (e.type === 'click' || e.type === 'auxclick' || e.type === 'dblclick' || e.type === 'mousedown') {
      e.preventDefault();
    }
    if (e.type === 'click' && e.button === 0 && u !== null) toggle(u.row);
  }

  /** Edit mode: the ring follows the pointer to the block a click would toggle. */
  function onHover(e) {
    if (!e.isTrusted || !live() || !cur.editing) return;
    var u = unitOf(e);
    if (!u || u.row === cur.blocks.focus) return;
    cur.blocks.focus = u.row;
    placeFocus();
  }

  /** cur.blocks for `sel`; a show of the node already shown keeps the overlay's own lists. */
  function setBlocks(sel) {
    var b = sel.blocks;
    if (!b || typeof b !== 'object' || !Array.isArray(b.kept)) {
      cur.blocks = null;
    } else {
      var old = cur.blocks;
      var same = old !== null && old.doc === sel.doc && old.node === sel.node;
      cur.blocks = {
        doc: sel.doc, node: sel.node, truncated: !!b.truncated,
        model: { kept: rows(b.kept), drop: rows(b.drop), quiet: rows(b.quiet) },
        include: same ? old.include : rows(sel.include),
        exclude: same ? old.exclude : rows(sel.exclude),
        focus: same ? old.focus : -1
      };
      derive(cur.blocks);
    }
    cur.edit.style.setProperty('display', cur.blocks === null ? 'none' : 'inline-block', 'important');
    if (cur.blocks === null) setEditing(false);
  }

  function send(command) {
    try {
      var p = api.runtime.sendMessage({ type: 'pith:command', command: command });
      if (p && typeof p.then === 'function') p.then(null, lost);
    } catch (e) {
      lost(e);
    }
  }

  function lost() {
    toast('Pith was updated or restarted and lost this page. Press Alt+Shift+P to select again.');
  }

  /** Take out the overlays and toasts another copy of this script left (an extension
   * reloaded while the page stayed open); that copy closes once it sees its host gone. */
  function removeOthers() {
    var others = document.querySelectorAll('pith-overlay, pith-toast');
    for (var i = 0; i < others.length; i++) {
      if (!loose || others[i] !== loose.host) others[i].remove();
    }
  }

  function open() {
    removeOthers();
    cur = build();
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule, { passive: true });
    window.addEventListener('mouseover', onHover, { capture: true, passive: true });
    EDIT_EVENTS.forEach(function (type) { window.addEventListener(type, onPagePointer, true); });
  }

  function lookup(sel) {
    var nodes = g.__pith.nodes;
    var el = nodes ? nodes[sel.node] : undefined;
    if (!el || !el.isConnected) return { error: 'the element was removed from the page' };
    if (String(el.localName).toLowerCase() !== sel.tag) return { error: 'another element is there now' };
    return { el: el };
  }

  /** Outline the element of row `sel.node` (checked against `sel.tag`); {ok, rect} or {ok: false, reason}. */
  function show(sel) {
    var found = lookup(sel);
    if (found.error) return { ok: false, reason: found.error };
    var el = found.el;
    if (!cur) open();
    cur.el = el;
    cur.host.setAttribute('data-pith-node', String(sel.node));
    cur.host.setAttribute('data-pith-path', JSON.stringify(sel.path));
    cur.host.setAttribute('data-pith-tag', sel.tag);
    cur.tag = sel.tag;
    cur.described = describe(el);
    cur.remember.style.setProperty('display', sel.offerRemember ? 'inline-block' : 'none', 'important');
    if (cur.host.parentNode !== document.documentElement) document.documentElement.appendChild(cur.host);
    var r = el.getBoundingClientRect();
    if (r.bottom < 0 || r.top > window.innerHeight) {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
    setBlocks(sel);
    renderVeils();
    setThread(sel);
    r = place();
    return { ok: true, rect: { x: r.left, y: r.top, width: r.width, height: r.height } };
  }

  /** Remove the overlay and its listeners; `notify` tells the background (Escape, ×). */
  function close(opts) {
    if (cur) {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('scroll', schedule, { capture: true, passive: true });
      window.removeEventListener('resize', schedule, { passive: true });
      window.removeEventListener('mouseover', onHover, { capture: true, passive: true });
      EDIT_EVENTS.forEach(function (type) { window.removeEventListener(type, onPagePointer, true); });
      if (cur.raf) cancelAnimationFrame(cur.raf);
      clearTimeout(cur.timer);
      cur.host.remove();
      cur = null;
    }
    if (opts && opts.notify) send('close');
  }

  function hideToast(holder) {
    clearTimeout(holder.timer);
    holder.toast.style.setProperty('display', 'none', 'important');
    if (holder === loose) {
      loose.host.remove();
      loose = null;
    }
  }

  /** Show `message` (plain text) for a few seconds, in the overlay or on its own;
   * `kind` 'error' (the default) or 'info' sets its colour. */
  function toast(message, kind) {
    var holder = cur;
    if (!holder) {
      if (!loose) {
        var host = hostElement('pith-toast');
        var root = host.attachShadow({ mode: 'closed' });
        var t = makeToast();
        root.appendChild(t);
        loose = { host: host, toast: t, timer: 0 };
        t.addEventListener('click', function (e) { if (e.isTrusted && loose) hideToast(loose); });
      }
      holder = loose;
      if (holder.host.parentNode !== document.documentElement) document.documentElement.appendChild(holder.host);
    }
    holder.toast.textContent = String(message);
    holder.toast.style.setProperty('background', TOAST_COLORS[kind] || TOAST_COLORS.error, 'important');
    holder.toast.style.setProperty('display', 'block', 'important');
    clearTimeout(holder.timer);
    holder.timer = setTimeout(function () { hideToast(holder); }, TOAST_MS);
  }

  g.__pith.overlay = { show: show, close: close, toast: toast };
})();
