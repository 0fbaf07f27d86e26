/* Pith background: registers every listener synchronously at top level and routes to background/*.js; no logic here.
 *
 * One file for both browsers. The manifest names it twice — "service_worker" (Chrome;
 * Chrome ignores "scripts") and "scripts" (Firefox, which ignores "service_worker" when
 * "scripts" is present) — with "type": "module" for both, so the modules are plain static
 * ES imports everywhere: Chrome loads module service workers, Firefox module background
 * scripts (both verified on the browsers of this repo's machines: Chromium 156, Firefox ESR
 * 153). No importScripts(), no bundler. Static imports finish before this body runs, so
 * the listeners below are still registered in the worker's first turn, as MV3 requires
 * for events that wake a stopped worker.
 */
import * as actions from './background/actions.js';
import { toWire } from './background/errors.js';
import { host } from './background/native-host.js';
import * as state from './background/state.js';

const api = globalThis.browser ?? globalThis.chrome;

api.action.onClicked.addListener((tab) => {
  actions.command('extract', tab.id);
});

api.commands.onCommand.addListener((name, tab) => {
  actions.onCommand(name, tab);
});

api.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  const answer = actions.onMessage(msg, sender);
  if (answer === undefined) return false;
  // sendResponse + `return true` is the form both browsers accept for async answers.
  Promise.resolve(answer).then(sendResponse, (err) => sendResponse({ ok: false, error: toWire(err) }));
  return true;
});

api.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status === 'loading') actions.forget(tabId);
});

api.tabs.onRemoved.addListener((tabId) => {
  actions.forget(tabId, true);
});

api.runtime.onStartup.addListener(() => {
  state.sweep();
});

// For tests, benchmarks and the console of the worker: the functions the listeners call.
globalThis.pith = Object.freeze({
  command: actions.command,
  state: actions.selectionOf,
  last: actions.lastReply,
  hello: actions.hello,
  host,
});
