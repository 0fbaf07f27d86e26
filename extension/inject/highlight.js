/* Pith highlight: outline the selected element in the page, with grow / shrink / reader / close controls.
 *
 * A classic script injected with scripting.executeScript into the extension's isolated
 * world, right before capture.js. Safe to inject any number of times: the first run
 * installs globalThis.__pith.overlay and later runs return at once. The background then
 * calls __pith.overlay.show({node, path, tag}), which looks the element up in
 * __pith.nodes (left there by capture.js: row → Element) and draws:
 *
 *   <pith-overlay id="pith-overlay" data-pith-node="7" data-pith-path="[1,1]" data-pith-tag="article">
 *     #shadow-root (open)
 *       <div part="box">            fixed, follows the element's getBoundingClientRect()
 *       <div part="bar">            <span part="label"> and buttons part="grow|shrink|remember|reader|close"
 *       <div part="toast">          messages, e.g. errors the background reports
 *
 * appended to document.documentElement. Keys while it is up: + or = grow, - shrink,
 * r reader, s remember (only while the Remember button shows: after a grow or shrink, the
 * background passes offerRemember), Escape closes (removes the overlay and every listener
 * it added). Buttons and
 * keys send {type: "pith:command", command} to the background, which asks the host and
 * calls show() again. Styles are set through the CSSOM (never markup, so a page's CSP
 * cannot block them) and with !important on the host element; text is set with
 * textContent only: nothing from the page is ever parsed as HTML.
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
  var TOAST_MS = 9000;                   // long enough to read two sentences
  var TOAST_COLORS = { error: '#7f1d1d', info: '#1f2a37' };   // red for failures, the bar's slate otherwise
  var FONT = '13px/1.3 system-ui, -apple-system, "Segoe UI", sans-serif';
  var KEYS = {
    '+': 'grow', '=': 'grow', '-': 'shrink', r: 'reader', R: 'reader', s: 'remember', S: 'remember',
    Escape: 'close'
  };
  var BUTTONS = [
    ['grow', '+', 'Grow the selection to its parent block (+)'],
    ['shrink', '\u2212', 'Shrink the selection to its best child block (\u2212)'],
    ['remember', 'Remember', 'Always choose this block on this site (S)'],
    ['reader', 'Reader', 'Open the selection in the reader view (R)'],
    ['close', '\u00d7', 'Close Pith (Esc)']
  ];

  // Another copy of this script in another isolated world (the extension was reloaded or
  // updated while the page stayed open) hears this DOM event and removes its overlay.
  var REPLACED_EVENT = 'pith:overlay-replaced';

  var cur = null;                        // the overlay on screen: {host, root, box, bar, label, toast, el, raf, timer}
  var loose = null;                      // a toast shown without an overlay: {host, toast, timer}
  var announcing = false;                // true while this copy sends REPLACED_EVENT itself

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
    var root = host.attachShadow({ mode: 'open' });
    var box = part('div', 'box');
    style(box, {
      position: 'fixed', 'box-sizing': 'border-box', margin: '0', padding: '0', border: '0',
      outline: OUTLINE, 'outline-offset': '-3px', background: 'rgba(240, 140, 0, 0.07)',
      'border-radius': '2px', 'pointer-events': 'none', left: '0', top: '0', width: '0', height: '0'
    });
    var bar = part('div', 'bar');
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', 'Pith selection');
    style(bar, {
      position: 'fixed', display: 'flex', 'align-items': 'center', gap: '4px', padding: '4px',
      background: '#1f2a37', color: '#fff', font: FONT, 'border-radius': '6px',
      'box-shadow': '0 2px 10px rgba(0,0,0,.35)', 'pointer-events': 'auto', left: '0', top: '0'
    });
    var label = part('span', 'label');
    style(label, { padding: '0 6px', 'font-family': 'ui-monospace, monospace', color: '#fcd9a8' });
    bar.appendChild(label);
    for (var i = 0; i < BUTTONS.length; i++) {
      var b = part('button', BUTTONS[i][0]);
      b.type = 'button';
      b.textContent = BUTTONS[i][1];
      b.setAttribute('aria-label', BUTTONS[i][2]);
      b.title = BUTTONS[i][2];
      b.dataset.command = BUTTONS[i][0];
      style(b, {
        font: FONT, 'font-weight': '600', 'min-width': '28px', height: '26px', padding: '0 8px',
        margin: '0', border: '0', 'border-radius': '4px', background: '#374151', color: '#fff',
        cursor: 'pointer'
      });
      bar.appendChild(b);
    }
    var toast = makeToast();
    root.appendChild(box);
    root.appendChild(bar);
    root.appendChild(toast);
    root.addEventListener('click', onClick);
    // Keep the page's own handlers from seeing Pith's pointer events as theirs.
    root.addEventListener('mousedown', stop);
    root.addEventListener('pointerdown', stop);
    var remember = bar.querySelector('[part="remember"]');
    remember.style.setProperty('display', 'none', 'important');
    return {
      host: host, root: root, box: box, bar: bar, label: label, toast: toast, remember: remember,
      el: null, raf: 0, timer: 0
    };
  }

  function stop(e) {
    e.stopPropagation();
  }

  function onClick(e) {
    e.stopPropagation();
    var t = e.target;
    if (cur && t === cur.toast) {
      hideToast(cur);
      return;
    }
    var command = t && t.dataset ? t.dataset.command : undefined;
    if (!command) return;
    e.preventDefault();
    if (command === 'close') close({ notify: true });
    else send(command);
  }

  function editable(el) {
    if (!el || el.nodeType !== 1) return false;
    var name = el.localName;
    return name === 'input' || name === 'textarea' || name === 'select' || el.isContentEditable;
  }

  function onKey(e) {
    if (!cur || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (!Object.prototype.hasOwnProperty.call(KEYS, e.key)) return;
    var command = KEYS[e.key];
    if (command === 'remember' && cur.remember.style.getPropertyValue('display') === 'none') return;
    var path = typeof e.composedPath === 'function' ? e.composedPath() : [];
    if (editable(path.length ? path[0] : e.target)) return;
    e.preventDefault();
    e.stopPropagation();
    if (command === 'close') close({ notify: true });
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

  /** Put the box on the element's current rectangle and the bar just above its top-right corner. */
  function place() {
    var r = cur.el.getBoundingClientRect();
    style(cur.box, { left: r.left + 'px', top: r.top + 'px', width: r.width + 'px', height: r.height + 'px' });
    var vw = document.documentElement.clientWidth || window.innerWidth;
    var vh = window.innerHeight;
    var bw = cur.bar.offsetWidth, bh = cur.bar.offsetHeight;
    var top = r.top - bh - GAP;
    if (top < GAP) top = r.top + GAP;                       // no room above: inside the box
    top = Math.max(GAP, Math.min(top, vh - bh - GAP));      // always on screen
    var left = Math.max(GAP, Math.min(r.right - bw, vw - bw - GAP));
    style(cur.bar, { left: left + 'px', top: top + 'px' });
    return r;
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

  function open() {
    announcing = true;
    try {
      document.dispatchEvent(new CustomEvent(REPLACED_EVENT));
    } finally {
      announcing = false;
    }
    cur = build();
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule, { passive: true });
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
    cur.label.textContent = '<' + sel.tag + '>';
    cur.remember.style.setProperty('display', sel.offerRemember ? 'inline-block' : 'none', 'important');
    if (cur.host.parentNode !== document.documentElement) document.documentElement.appendChild(cur.host);
    var r = el.getBoundingClientRect();
    if (r.bottom < 0 || r.top > window.innerHeight) {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
    r = place();
    return { ok: true, rect: { x: r.left, y: r.top, width: r.width, height: r.height } };
  }

  /** Remove the overlay and its listeners; `notify` tells the background (Escape, ×). */
  function close(opts) {
    if (cur) {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('scroll', schedule, { capture: true, passive: true });
      window.removeEventListener('resize', schedule, { passive: true });
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
        var root = host.attachShadow({ mode: 'open' });
        var t = makeToast();
        root.appendChild(t);
        loose = { host: host, toast: t, timer: 0 };
        t.addEventListener('click', function () { if (loose) hideToast(loose); });
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

  document.addEventListener(REPLACED_EVENT, function () {
    if (announcing) return;
    close({ notify: false });
    if (loose) hideToast(loose);
  });

  g.__pith.overlay = { show: show, close: close, toast: toast };
})();
