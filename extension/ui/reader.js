/* Pith reader placeholder logic: read the selection of ?tab=ID from storage and show it as plain text. */
const api = globalThis.browser ?? globalThis.chrome;

async function main() {
  const tabId = new URLSearchParams(location.search).get('tab');
  const area = api.storage.session ?? api.storage.local;    // state.js falls back the same way
  const key = `reader:${tabId}`;
  const item = (await area.get(key))[key];
  const title = document.getElementById('title');
  if (!item) {
    title.textContent = 'Nothing to show';
    document.getElementById('text').textContent =
      'Select a block first: click Pith (or press Alt+Shift+P) on a page, then R.';
    return;
  }
  document.title = `${item.title || 'Untitled'} – Pith reader`;
  title.textContent = item.title || 'Untitled';
  const source = document.getElementById('source');
  source.textContent = item.url;
  if (/^https?:/i.test(item.url)) source.href = item.url;   // never a javascript: URL
  document.getElementById('text').textContent = item.text;
}

main();
