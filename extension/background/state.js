/* Pith per-tab state: the selection of each tab ({doc, node, path, trail, tag, …}) kept in storage.session.
 *
 * storage.session outlives a stopped service worker (Chrome stops idle workers after 30 s)
 * but not the browser, which is what a selection should do. Chrome has it since 102 and
 * Firefox since 115 (the manifest's strict_min_version is 142, so both always have it). If
 * it is missing all the same (an older or unusual build), an in-memory map backed by
 * storage.local under the same keys takes its place; those entries are deleted when the
 * tab closes or navigates, and are swept at start-up of a browser without storage.session.
 * Keys: "tab:<tabId>" (selection), "reader:<tabId>" (what the reader page shows).
 */
const api = globalThis.browser ?? globalThis.chrome;

const hasSession = !!(api.storage && api.storage.session);
const memory = new Map();

/** The storage area used; `session` says whether it is the real storage.session. */
export const backend = hasSession ? 'storage.session' : 'memory+storage.local';

async function get(key) {
  if (hasSession) return (await api.storage.session.get(key))[key] ?? null;
  if (memory.has(key)) return memory.get(key);
  const value = (await api.storage.local.get(key))[key] ?? null;
  if (value !== null) memory.set(key, value);
  return value;
}

async function set(key, value) {
  if (hasSession) return api.storage.session.set({ [key]: value });
  memory.set(key, value);
  return api.storage.local.set({ [key]: value });
}

async function remove(keys) {
  if (hasSession) return api.storage.session.remove(keys);
  for (const k of keys) memory.delete(k);
  return api.storage.local.remove(keys);
}

const tabKey = (tabId) => `tab:${tabId}`;
const readerKey = (tabId) => `reader:${tabId}`;

/** The selection of `tabId`, or null. */
export function selection(tabId) {
  return get(tabKey(tabId));
}

export function saveSelection(tabId, value) {
  return set(tabKey(tabId), value);
}

export function reader(tabId) {
  return get(readerKey(tabId));
}

export function saveReader(tabId, value) {
  return set(readerKey(tabId), value);
}

/** Forget what is kept for `tabId`; the reader copy only when the tab itself is gone. */
export function forget(tabId, { removed = false } = {}) {
  return remove(removed ? [tabKey(tabId), readerKey(tabId)] : [tabKey(tabId)]);
}

/** At start-up without storage.session: drop storage.local entries left by an earlier run. */
export async function sweep() {
  if (hasSession) return;
  const all = await api.storage.local.get(null);
  const stale = Object.keys(all).filter((k) => k.startsWith('tab:') || k.startsWith('reader:'));
  if (stale.length) await api.storage.local.remove(stale);
}
