/* Pith bench anchor: Readability.js (with jsdom) as a long-lived process speaking JSON lines.
 *
 * stdin:  one JSON object a line, {"id": ..., "html": "...", "url": "..."}
 * stdout: one JSON object a line, {"id": ..., "text": "...", "ms": 12.3} or {"id": ..., "error": "..."}
 * Modules come from NODE_PATH (the bench points it at tests/node_modules). One process
 * serves a whole benchmark run, so Node's start-up is paid once, not per page.
 */
'use strict';
const readline = require('readline');
const { JSDOM, VirtualConsole } = require('jsdom');
const { Readability } = require('@mozilla/readability');

// Pages are parsed only: no scripts, no resources, and their console noise is dropped.
const quiet = new VirtualConsole();

function extract(html, url) {
  const dom = new JSDOM(html, { url: url || 'http://localhost/', virtualConsole: quiet });
  try {
    const article = new Readability(dom.window.document).parse();
    return article && article.textContent ? article.textContent : '';
  } finally {
    dom.window.close();
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ id: null, error: 'not JSON: ' + e.message }) + '\n');
    return;
  }
  const t0 = process.hrtime.bigint();
  let reply;
  try {
    const text = extract(request.html || '', request.url || '');
    reply = { id: request.id, text, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
  } catch (e) {
    reply = { id: request.id, error: String((e && e.message) || e) };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
});
