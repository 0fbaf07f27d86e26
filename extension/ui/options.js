/* Pith settings page logic: ask the background for the host's hello and show it (textContent only). */
const api = globalThis.browser ?? globalThis.chrome;

function text(id, value) {
  document.getElementById(id).textContent = value;
}

async function check() {
  const status = document.getElementById('host-status');
  status.className = 'status';
  status.textContent = 'Asking the host…';
  let reply;
  try {
    reply = await api.runtime.sendMessage({ type: 'pith:hello' });
  } catch (err) {
    reply = { ok: false, error: { message: String(err && err.message || err) } };
  }
  const details = document.getElementById('host-details');
  if (reply && reply.ok) {
    const h = reply.hello;
    status.className = 'status ok';
    status.textContent = 'The Pith host answers.';
    text('host-version', `pith ${h.version}`);
    text('host-protocol', `${h.protocol} (snapshot ${h.snapshot})`);
    text('host-pid', h.pid === undefined ? 'unknown' : `pid ${h.pid}`);
    text('host-algorithms', (h.algorithms || []).join(', '));
    text('storage', reply.storage);
    details.hidden = false;
  } else {
    status.className = 'status error';
    status.textContent = (reply && reply.error && reply.error.message) || 'No answer from the background.';
    details.hidden = true;
  }
}

document.getElementById('recheck').addEventListener('click', check);
check();
