/* Pith toolbar badge and title per tab: "…" working, the selected tag on success, "!" and the reason on error. */
const api = globalThis.browser ?? globalThis.chrome;

export const DEFAULT_TITLE = 'Pith: outline the main content (Alt+Shift+P)';
const MAX_BADGE_CHARS = 4;                 // what fits on the icon
const COLOURS = { busy: '#6b7280', ok: '#c2410c', error: '#b91c1c' };

async function paint(tabId, text, title, colour) {
  try {
    const calls = [api.action.setBadgeText({ tabId, text }), api.action.setTitle({ tabId, title })];
    if (colour) calls.push(api.action.setBadgeBackgroundColor({ tabId, color: colour }));
    await Promise.all(calls);
  } catch (e) {
    // the tab closed meanwhile: nothing to paint
  }
}

export function busy(tabId) {
  return paint(tabId, '…', 'Pith: working…', COLOURS.busy);
}

export function selected(tabId, tag) {
  const text = tag && tag.length <= MAX_BADGE_CHARS ? tag : '✓';
  return paint(tabId, text, `Pith: <${tag}> selected. + grow, − shrink, R reader, Esc close`, COLOURS.ok);
}

export function failed(tabId, error) {
  return paint(tabId, '!', `Pith: ${error.message}`, COLOURS.error);
}

export function clear(tabId) {
  return paint(tabId, '', DEFAULT_TITLE, null);
}
