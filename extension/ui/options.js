/* Pith settings page logic: host status, method and host option overrides, shortcuts, saved blocks, reader preferences.
 *
 * Everything on the page is built with createElement and textContent (nothing parsed as
 * HTML); every control has a <label> or an aria-label, so a screen reader announces it.
 * The host's defaults come from its `hello` (option name, value, kind, why, choices or
 * bounds); only the values the user changed are stored (background/settings.js) and sent
 * with each selection, where the host validates them once more.
 */
import * as rules from '../background/rules.js';
import * as settings from '../background/settings.js';
import * as prefs from './prefs.js';

const api = globalThis.browser ?? globalThis.chrome;

let hostOptions = [];          // the host's option list from hello
let overrides = {};            // the user's stored overrides

function $(id) {
  return document.getElementById(id);
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') node.textContent = v;
    else if (k in node && typeof v !== 'string') node[k] = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function say(id, message) {
  $(id).textContent = message;
}

// --- host --------------------------------------------------------------------------------

async function check() {
  const status = $('host-status');
  status.className = 'status';
  status.textContent = 'Asking the host…';
  let reply;
  try {
    reply = await api.runtime.sendMessage({ type: 'pith:hello' });
  } catch (err) {
    reply = { ok: false, error: { message: String(err && err.message || err) } };
  }
  const details = $('host-details');
  if (reply && reply.ok) {
    const h = reply.hello;
    status.className = 'status ok';
    status.textContent = 'The Pith host answers.';
    say('host-version', `pith ${h.version}`);
    say('host-protocol', `${h.protocol} (snapshot ${h.snapshot})`);
    say('host-pid', h.pid === undefined ? 'unknown' : `pid ${h.pid}`);
    say('host-algorithms', (h.algorithms || []).join(', '));
    say('storage', reply.storage);
    details.hidden = false;
    hostOptions = Array.isArray(h.options) ? h.options : [];
    await showOptions();
  } else {
    status.className = 'status error';
    status.textContent = (reply && reply.error && reply.error.message) || 'No answer from the background.';
    details.hidden = true;
  }
}

// --- method and host options -------------------------------------------------------------

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function control(opt, value) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.kind === 'bool') {
    input = el('input', { type: 'checkbox', id });
    input.checked = !!value;
  } else if (opt.choices) {
    input = el('select', { id });
    for (const c of opt.choices) input.append(el('option', { value: c, text: c }));
    input.value = value;
  } else if (opt.kind === 'int' || opt.kind === 'float') {
    input = el('input', { type: 'number', id, step: opt.kind === 'int' ? '1' : 'any' });
    if (opt.lo !== undefined) input.min = String(opt.lo);
    if (opt.hi !== undefined) input.max = String(opt.hi);
    input.value = String(value);
  } else if (opt.kind === 'list') {
    input = el('input', { type: 'text', id, spellcheck: false });
    input.value = (value || []).join(', ');
  } else {
    input = el('input', { type: 'text', id, spellcheck: false });
    input.value = String(value ?? '');
  }
  input.dataset.option = opt.name;
  return input;
}

/** The value a control holds, typed like the option; throws a message when it is invalid. */
function valueOf(opt, input) {
  if (opt.kind === 'bool') return input.checked;
  if (opt.choices) return input.value;
  if (opt.kind === 'int' || opt.kind === 'float') {
    const n = Number(input.value);
    if (input.value.trim() === '' || !Number.isFinite(n) || (opt.kind === 'int' && !Number.isInteger(n))) {
      throw new Error(`${opt.name} must be ${opt.kind === 'int' ? 'a whole number' : 'a number'}`);
    }
    if ((opt.lo !== undefined && n < opt.lo) || (opt.hi !== undefined && n > opt.hi)) {
      throw new Error(`${opt.name} must be between ${opt.lo} and ${opt.hi}`);
    }
    return n;
  }
  if (opt.kind === 'list') return input.value.split(',').map((s) => s.trim()).filter(Boolean);
  return input.value;
}

async function showOptions() {
  overrides = await settings.hostOptions();
  const box = $('host-options');
  box.replaceChildren();
  const algorithm = $('algorithm');
  algorithm.replaceChildren();
  for (const opt of hostOptions) {
    const value = Object.hasOwn(overrides, opt.name) ? overrides[opt.name] : opt.value;
    if (opt.name === 'algorithm') {
      for (const c of opt.choices || []) algorithm.append(el('option', { value: c, text: c }));
      algorithm.value = value;
      algorithm.disabled = false;
      algorithm.dataset.option = opt.name;
      say('algorithm-why', `Default: ${opt.value}. ${opt.why}`);
      continue;
    }
    const input = control(opt, value);
    const why = el('p', { id: `why-${opt.name}`, class: 'muted why', text: `Default ${JSON.stringify(opt.value)}: ${opt.why}` });
    input.setAttribute('aria-describedby', why.id);
    const label = el('label', { for: input.id, text: opt.name });
    box.append(el('div', { class: 'option' }, label, input, why));
  }
  say('override-count', String(Object.keys(overrides).length));
  $('save-options').disabled = false;
  $('reset-options').disabled = false;
}

async function saveOptions() {
  const next = {};
  try {
    for (const opt of hostOptions) {
      const input = opt.name === 'algorithm' ? $('algorithm') : $(`opt-${opt.name}`);
      if (!input) continue;
      const value = valueOf(opt, input);
      if (!same(value, opt.value)) next[opt.name] = value;
    }
  } catch (err) {
    say('options-status', `Not saved: ${err.message}.`);
    return;
  }
  await settings.saveHostOptions(next);
  overrides = next;
  say('override-count', String(Object.keys(next).length));
  const n = Object.keys(next).length;
  say('options-status', n ? `Saved: ${n} option${n > 1 ? 's' : ''} differ from the host's defaults.` : "Saved: the host's defaults.");
}

async function resetOptions() {
  await settings.saveHostOptions({});
  await showOptions();
  say('options-status', "Reset: the host's defaults apply.");
}

// --- shortcuts ---------------------------------------------------------------------------

async function showShortcuts() {
  const body = $('shortcuts').tBodies[0];
  body.replaceChildren();
  const commands = api.commands && api.commands.getAll ? await api.commands.getAll() : [];
  for (const c of commands) {
    const name = c.description || (c.name === '_execute_action' ? 'Toolbar button' : c.name);
    body.append(el('tr', {}, el('td', { text: name }), el('td', {}, el('kbd', { text: c.shortcut || 'not set' }))));
  }
}

// --- saved blocks ------------------------------------------------------------------------

async function showRules() {
  const all = await rules.all();
  const sites = Object.keys(all).sort();
  const table = $('rules');
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const site of sites) {
    const rule = all[site];
    const button = el('button', { type: 'button', text: 'Delete' });
    button.setAttribute('aria-label', `Delete the saved block for ${site}`);
    button.addEventListener('click', async () => {
      await rules.remove(site);
      await showRules();
      $('h-rules').focus?.();
    });
    const saved = rule.saved ? new Date(rule.saved).toLocaleDateString() : '';
    body.append(el('tr', {},
      el('td', { text: site }),
      el('td', {}, el('code', { text: rule.selector })),
      el('td', { text: saved }),
      el('td', {}, button)));
  }
  table.hidden = sites.length === 0;
  $('rules-empty').hidden = sites.length > 0;
}

// --- reader preferences ------------------------------------------------------------------

const PREF_FIELDS = [
  { name: 'theme', label: 'Theme', choices: prefs.THEMES },
  { name: 'font', label: 'Font', choices: prefs.FONTS },
  { name: 'size', label: 'Text size (px)' },
  { name: 'width', label: 'Line width (em)' },
  { name: 'lineHeight', label: 'Line height' },
  {
    name: 'removedLinks',
    label: 'List left-out links',
    why: 'At the end of the reader, list the links Pith left out of the block: menus, share buttons, related articles.',
  },
];

async function showReaderPrefs() {
  const box = $('reader-prefs');
  box.replaceChildren();
  const current = await prefs.load();
  for (const field of PREF_FIELDS) {
    const id = `pref-${field.name}`;
    const range = prefs.RANGES[field.name];
    let input;
    if (field.choices) {
      input = el('select', { id });
      for (const c of field.choices) input.append(el('option', { value: c, text: c }));
      input.value = current[field.name];
    } else if (typeof prefs.DEFAULTS[field.name] === 'boolean') {
      input = el('input', { type: 'checkbox', id });
      input.checked = !!current[field.name];
    } else {
      input = el('input', { type: 'number', id, min: String(range.min), max: String(range.max), step: String(range.step) });
      input.value = String(current[field.name]);
    }
    input.addEventListener('change', async () => {
      const value = field.choices ? input.value : input.type === 'checkbox' ? input.checked : Number(input.value);
      const saved = await prefs.save({ [field.name]: value });
      if (input.type === 'number') input.value = String(saved[field.name]);
      say('reader-status', `Saved: ${field.label.toLowerCase()}.`);
    });
    const row = el('div', { class: 'option' }, el('label', { for: id, text: field.label }), input);
    if (field.why) {
      const why = el('p', { class: 'why muted', id: `${id}-why`, text: field.why });
      input.setAttribute('aria-describedby', why.id);
      row.append(why);
    }
    box.append(row);
  }
}

$('recheck').addEventListener('click', check);
$('save-options').addEventListener('click', saveOptions);
$('reset-options').addEventListener('click', resetOptions);
api.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'siteRules' in changes) showRules();
});

check();
showShortcuts();
showRules();
showReaderPrefs();
