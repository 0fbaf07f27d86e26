/* Pith native host client: one persistent port to dev.pith.host, request ids, pending map, timeouts, reconnects.
 *
 * The port opens on the first request and stays open (an open native port also keeps
 * Chrome's service worker alive). Each port starts with `hello`, which checks the protocol
 * version; later requests wait for it. Replies are matched to requests by `id`. When the
 * host exits, every pending request is rejected with an error that says what happened
 * (the browser's own words included) and the next request starts a new host. A request
 * that times out stops the host too: it answers in order, so a wedged host would hold
 * every later request hostage.
 */
import { INSTALL_COMMAND, PithError, fromHost } from './errors.js';

const api = globalThis.browser ?? globalThis.chrome;

export const HOST_NAME = 'dev.pith.host';
export const PROTOCOL_VERSION = 1;       // equals pith.PROTOCOL_VERSION (tests/test_manifest.py)

// Per-action time limits (ms). A first hello also pays Python's start-up; select scales with
// the page (a 1M-element snapshot takes seconds); grow and shrink run the block stage on
// the element they move to (about 0.9 s for 25k elements measured, on a loaded machine
// more), so they get the time a large page needs, not a lookup's.
export const TIMEOUTS_MS = Object.freeze({
  hello: 15000, echo: 10000, select: 60000, grow: 15000, shrink: 15000,
});

// How the browsers word "no such host registered" (Chrome, Firefox).
const NOT_INSTALLED = /not found|no such native application/i;
// Chrome's words when the host is registered but not for this extension id.
const FORBIDDEN = /forbidden/i;

function notInstalled(why) {
  return new PithError('host_not_installed',
    `The Pith host is not installed for this browser. Install it with: ${INSTALL_COMMAND} ` +
    `(then click Pith again). Browser said: ${why}`, { detail: { browser: why, fix: INSTALL_COMMAND } });
}

/** The error for a port that closed with `why` (the browser's message, maybe empty). */
export function disconnectError(why) {
  if (NOT_INSTALLED.test(why)) return notInstalled(why);
  if (FORBIDDEN.test(why)) {
    return new PithError('host_not_installed',
      `The Pith host is registered, but not for this copy of the extension. Run: ${INSTALL_COMMAND} ` +
      `(then click Pith again). Browser said: ${why}`, { detail: { browser: why, fix: INSTALL_COMMAND } });
  }
  const said = why ? ` Browser said: ${why}` : '';
  return new PithError('host_exited',
    `The Pith host stopped unexpectedly.${said} Click Pith again to restart it; if this keeps ` +
    'happening, run: pith doctor', { detail: { browser: why } });
}

export class NativeHost {
  constructor(name = HOST_NAME) {
    this.name = name;
    this.port = null;
    this.pending = new Map();     // id → {resolve, reject, timer, action}
    this.order = [];              // ids in the order sent: replies with a null id go to the oldest
    this.nextId = 1;
    this.session = null;          // token of the current port: select results are tied to it
    this.hello = null;            // the current host's hello result
    this.ready = null;            // promise of that hello
  }

  /** Result of `action` with `params`; rejects with a PithError. */
  async request(action, params = {}, timeoutMs = TIMEOUTS_MS[action] ?? TIMEOUTS_MS.select) {
    if (this.port === null) this.connect();
    if (action !== 'hello') await this.ready;
    return this.send(action, params, timeoutMs);
  }

  /** The hello result of the running host (starting it if needed). */
  async info() {
    if (this.port === null) this.connect();
    return this.ready;
  }

  connect() {
    let port;
    try {
      port = api.runtime.connectNative(this.name);
    } catch (err) {
      // Firefox throws at once for some failures instead of disconnecting.
      const e = disconnectError(String((err && err.message) || err));
      this.ready = Promise.reject(e);
      this.ready.catch(() => {});
      throw e;
    }
    this.port = port;
    this.session = Math.random().toString(36).slice(2) + Date.now().toString(36);
    port.onMessage.addListener((msg) => this.onReply(port, msg));
    port.onDisconnect.addListener((p) => this.onDisconnect(port, p));
    this.ready = this.send('hello', {}, TIMEOUTS_MS.hello).then((hello) => {
      if (hello.protocol !== PROTOCOL_VERSION) {
        const e = new PithError('host_incompatible',
          `The Pith host speaks protocol ${hello.protocol}, this extension ${PROTOCOL_VERSION}. ` +
          `Update both, then run: ${INSTALL_COMMAND}`, { detail: { host: hello.protocol } });
        this.stop(e);
        throw e;
      }
      if (port === this.port) this.hello = hello;
      return hello;
    });
    this.ready.catch(() => {});
  }

  send(action, params, timeoutMs) {
    const port = this.port;
    if (port === null) return Promise.reject(disconnectError(''));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(new PithError('host_timeout',
          `The Pith host did not answer "${action}" within ${Math.round(timeoutMs / 1000)} s; ` +
          'it was stopped and starts again on the next click.', { detail: { action, ms: timeoutMs } }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, action });
      this.order.push(id);
      try {
        port.postMessage({ v: PROTOCOL_VERSION, id, action, ...params });
      } catch (err) {
        // The port died before its onDisconnect reached us.
        this.stop(disconnectError(String((err && err.message) || err)));
      }
    });
  }

  onReply(port, msg) {
    if (port !== this.port || msg === null || typeof msg !== 'object') return;
    let id = msg.id;
    if (id === null || id === undefined) id = this.order[0];     // a frame error: the oldest request
    const entry = this.pending.get(id);
    if (entry === undefined) return;                              // timed out already
    this.settle(id);
    if (msg.ok === true) entry.resolve(msg.result);
    else entry.reject(fromHost(msg.error));
  }

  onDisconnect(port, p) {
    if (port !== this.port) return;
    const lastError = api.runtime.lastError;                      // Chrome
    const why = (lastError && lastError.message) || (p && p.error && p.error.message) || '';  // Firefox: port.error
    this.drop(disconnectError(why));
  }

  /** Close the port (the browser then ends the host) and reject what is pending with `error`. */
  stop(error) {
    const port = this.port;
    this.drop(error);
    if (port !== null) {
      try { port.disconnect(); } catch (e) { /* already closed */ }
    }
  }

  drop(error) {
    this.port = null;
    this.hello = null;
    this.session = null;
    const entries = [...this.pending.values()];
    for (const id of [...this.pending.keys()]) this.settle(id);
    for (const entry of entries) entry.reject(error);
  }

  settle(id) {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.pending.delete(id);
    const at = this.order.indexOf(id);
    if (at >= 0) this.order.splice(at, 1);
  }
}

export const host = new NativeHost();
