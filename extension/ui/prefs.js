/* Pith reader preferences: defaults, ranges, one validation point, load/save in storage.local "readerPrefs", change events.
 *
 * READER.md is the contract: {theme, font, size (px), width (em), lineHeight, removedLinks,
 * voice, rate} (the last two are read aloud's, narrate.js: a voice's voiceURI, '' for the
 * browser's default, and the speaking rate).
 * The reader page and the options page both go through this module, so a value is
 * validated once, the same way, wherever it comes from (storage written by an older
 * version, another page, a person editing storage by hand).
 *
 * Rules of `validate`: an unknown key is dropped; a value of the wrong type or outside
 * the list of choices takes the default; a number outside its range is clamped to the
 * range and rounded to its step (so 1.6 + 0.1 stays 1.7, not 1.7000000000000002).
 *
 * The default theme is "light" whatever the system's prefers-color-scheme says: the
 * reader looks the same on every machine until a person picks a theme, and that choice is
 * then remembered (a deliberate choice for determinism; READER.md lists "light" first).
 */
const api = globalThis.browser ?? globalThis.chrome;

/** The storage.local key. */
export const KEY = 'readerPrefs';

export const THEMES = Object.freeze(['light', 'dark', 'sepia']);
export const FONTS = Object.freeze(['serif', 'sans', 'mono']);

/** A comfortable reading page: 20 px serif, lines of 38 em, line height 1.6. */
export const DEFAULTS = Object.freeze({
  theme: 'light', font: 'serif', size: 20, width: 38, lineHeight: 1.6, removedLinks: false,
  voice: '', rate: 1,
});

// A voiceURI is a name or a URN; longer is not one.
const MAX_VOICE_CHARS = 300;

/** Numeric preferences: range and step (the A−/A+ buttons move by one step). */
export const RANGES = Object.freeze({
  size: Object.freeze({ min: 14, max: 32, step: 1 }),          // px
  width: Object.freeze({ min: 24, max: 60, step: 1 }),         // em
  lineHeight: Object.freeze({ min: 1.2, max: 2.2, step: 0.1 }),
  rate: Object.freeze({ min: 0.5, max: 2, step: 0.05 }),       // × the voice's normal rate (the menu: 0.5, 0.75 … 2)
});

const CHOICES = Object.freeze({ theme: THEMES, font: FONTS });

function clampToStep(value, { min, max, step }) {
  const clamped = Math.min(max, Math.max(min, value));
  const steps = Math.round((clamped - min) / step);
  // toFixed(4) then Number: no binary-fraction tails (1.7000000000000002) in storage.
  return Number(Math.min(max, min + steps * step).toFixed(4));
}

/** A complete, valid preferences object from anything (see the rules at the top). */
export function validate(raw) {
  const src = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
  const own = (k) => Object.prototype.hasOwnProperty.call(src, k);
  const out = { ...DEFAULTS };
  for (const [key, choices] of Object.entries(CHOICES)) {
    if (own(key) && choices.includes(src[key])) out[key] = src[key];
  }
  for (const [key, range] of Object.entries(RANGES)) {
    const v = own(key) ? src[key] : undefined;
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = clampToStep(v, range);
  }
  if (own('removedLinks') && typeof src.removedLinks === 'boolean') out.removedLinks = src.removedLinks;
  if (own('voice') && typeof src.voice === 'string' && src.voice.length <= MAX_VOICE_CHARS) out.voice = src.voice;
  return out;
}

/** `prefs` with the numeric preference `key` moved by `steps` steps (clamped). */
export function nudge(prefs, key, steps) {
  const range = RANGES[key];
  if (!range) throw new Error(`not a numeric preference: ${key}`);
  return validate({ ...prefs, [key]: prefs[key] + steps * range.step });
}

/** The theme after `theme` in THEMES, wrapping around. */
export function nextTheme(theme) {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
}

/** The saved preferences, validated (the defaults when nothing is saved or storage fails). */
export async function load() {
  try {
    return validate((await api.storage.local.get(KEY))[KEY]);
  } catch {
    return { ...DEFAULTS };
  }
}

// Saves of one page run one after the other: two quick changes of different keys (A+ then
// Dark) must not both read the old object and the second write undo the first.
let queue = Promise.resolve();

/** Merge `changes` into the saved preferences, validate, store; resolves to the stored object. */
export function save(changes) {
  const run = queue.then(async () => {
    const next = validate({ ...(await load()), ...changes });
    await api.storage.local.set({ [KEY]: next });
    return next;
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Call `callback(prefs)` whenever the saved preferences change (any page); returns an unsubscribe function. */
export function watch(callback) {
  const listener = (changes, area) => {
    if (area === 'local' && Object.prototype.hasOwnProperty.call(changes, KEY)) {
      callback(validate(changes[KEY].newValue));
    }
  };
  api.storage.onChanged.addListener(listener);
  return () => api.storage.onChanged.removeListener(listener);
}
