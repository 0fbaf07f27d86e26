/* Pith settings the user changed: host option overrides, kept in storage.local "hostOptions".
 *
 * The host owns every default (its `hello` lists them with their reasons, and the options
 * page shows that list); the extension keeps only what the user overrode and sends it with
 * each `select`, where the host validates it (a bad value is `bad_options`, 25).
 */
const api = globalThis.browser ?? globalThis.chrome;

const KEY = 'hostOptions';

/** The user's overrides {name: value}; {} when none. */
export async function hostOptions() {
  const value = (await api.storage.local.get(KEY))[KEY];
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

export function saveHostOptions(overrides) {
  return api.storage.local.set({ [KEY]: overrides });
}
