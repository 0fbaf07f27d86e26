/* Pith extension errors: one class with the stable {code, name, message} of host/PROTOCOL.md §6.
 *
 * Codes 60–69 and 80–89 are the extension's own (host/pith/errors.py holds the same table, and
 * tests/test_manifest.py checks that both agree); errors of the host arrive with their own
 * code and name and are passed on unchanged. Messages are for people: each says what to do.
 */

export const INSTALL_COMMAND = 'pith install-host';

/** name → code of every error the extension itself raises (`internal` and `bad_request` are
 * the host's codes, used for the same meaning). */
export const CODES = Object.freeze({
  internal: 1,
  bad_request: 23,
  host_not_installed: 60,
  host_exited: 61,
  host_timeout: 62,
  host_incompatible: 63,
  page_forbidden: 64,
  page_loading: 65,
  no_selection: 66,
  page_changed: 67,
  block_too_large: 68,
  cannot_remember: 69,
  page_too_large: 80,
});

export class PithError extends Error {
  /** `name` is a stable error name; `code` defaults to CODES[name] (host errors carry theirs). */
  constructor(name, message, { code, detail } = {}) {
    super(message);
    this.name = name;
    this.code = code ?? CODES[name] ?? CODES.internal;
    if (detail !== undefined) this.detail = detail;
  }

  toWire() {
    const out = { code: this.code, name: this.name, message: this.message };
    if (this.detail !== undefined) out.detail = this.detail;
    return out;
  }
}

/** The wire form {code, name, message} of anything thrown. */
export function toWire(err) {
  if (err instanceof PithError) return err.toWire();
  const message = (err && err.message) || String(err);
  return { code: CODES.internal, name: 'internal', message: `Pith failed unexpectedly: ${message}` };
}

/** A PithError from the `error` object of a host reply. */
export function fromHost(error) {
  const e = error || {};
  return new PithError(String(e.name || 'internal'), String(e.message || 'the host reported an error'),
    { code: Number.isInteger(e.code) ? e.code : CODES.internal, detail: e.detail });
}
