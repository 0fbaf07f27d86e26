/* Pith per-site rules: the block a reader chose on a site, remembered in storage.local "siteRules".
 *
 * When a reader corrects the selection with grow or shrink, the overlay offers to remember
 * it; the rule is then a CSS selector for that element (inject/locate.js builds one that is
 * unique and avoids generated ids and classes) with its tag, keyed by the site's host name.
 * On the next extract on that site the selector is resolved in the fresh page: when it
 * matches exactly one visible element with at least MIN_CHARS characters of text, that
 * element is the selection (host `select` with `pin`); otherwise the algorithm chooses as
 * if there were no rule, and the reader is told the rule no longer matches. The options
 * page lists the rules and deletes them (it imports this module).
 */
const api = globalThis.browser ?? globalThis.chrome;

const KEY = 'siteRules';

// A remembered block that kept its selector but lost its text (an empty template, a
// "loading…" shell) is not the block the reader chose: fall back to the algorithm.
export const MIN_CHARS = 80;

/** The site a rule belongs to: the host name of an http(s) URL, else null (no rules there). */
export function siteOf(url) {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : null;
  } catch (e) {
    return null;
  }
}

/** {site: rule} of every saved rule. */
export async function all() {
  return (await api.storage.local.get(KEY))[KEY] ?? {};
}

/** The rule of `site` ({selector, tag, chars, path, saved, title}), or null. */
export async function get(site) {
  if (!site) return null;
  return (await all())[site] ?? null;
}

export async function save(site, rule) {
  const rules = await all();
  rules[site] = rule;
  await api.storage.local.set({ [KEY]: rules });
}

export async function remove(site) {
  const rules = await all();
  delete rules[site];
  await api.storage.local.set({ [KEY]: rules });
}
