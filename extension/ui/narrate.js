/* Pith read aloud: the reader's text spoken with the browser's own voices (Web Speech API), sentence by sentence, the spoken sentence marked and kept in view.
 *
 * No network and no dependency: speechSynthesis speaks with the voices the system has
 * (espeak-ng through speech-dispatcher on Linux; the system voices on Windows and macOS).
 * Some browsers also list online voices, which send the text to their provider: the Voice
 * menu marks them "online", and one speaks only when the person picks it (or when the
 * browser has no voice on the machine at all); by default a voice on the machine for the
 * page's language reads (`chosenVoice`).
 *
 * What is read: the title, then every text block of the article in order (the innermost
 * p, headings, list items, quotes, captions, cells, code), each split into sentences with
 * Intl.Segmenter in the page's language. Each sentence is one SpeechSynthesisUtterance, all
 * the sentences of a paragraph queued at once; the sentence being spoken is marked with the
 * CSS Custom Highlight API (`::highlight(pith-sentence)`, and the word at the last
 * `boundary` event with `pith-word`), so the DOM is never changed; where the API is missing
 * the paragraph alone is marked (data-narrating). The marked sentence is scrolled into view
 * when it leaves the screen.
 *
 * reader.js loads this module at the first use (the "Read aloud" button or Space), and the
 * voices are asked for then too: opening the reader costs nothing for it.
 *
 * Controls: the "Read aloud" button (above the title; reader.js calls `toggle`) starts
 * reading and opens the bar at the foot of the window (reader.html #narrate): pause/resume, previous/next paragraph, speed, voice
 * (both remembered in the reader preferences, prefs.js `rate` and `voice`), stop (which
 * closes the bar). Keys (reader.js hands them here first): Space starts, pauses and
 * resumes; while reading (or paused), ← and → go to the previous and next paragraph, and
 * Escape stops.
 *
 * Reading stops when the page goes (pagehide) and when another reader tab starts reading
 * (a BroadcastChannel message), so two voices never talk at once. Events of utterances a
 * skip or a stop cancelled are ignored (each run has a generation number).
 *
 * When the browser has no voice at all, pressing play says so in the status line and how to
 * get one; nothing else happens.
 */

// The Web Speech API fills its voice list asynchronously; after this long without any
// voice (and no voiceschanged event bringing one) the browser has none.
export const VOICE_WAIT_MS = 1500;
// Speeds offered in the menu (× the voice's normal rate; prefs.js RANGES.rate bounds them).
export const RATES = Object.freeze([0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]);
const CHANNEL = 'pith-read-aloud';
const BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, dt, dd, figcaption, caption, blockquote, pre, td, th, summary';
// Text a voice should not read: a formula's TeX annotation (its MathML is read instead).
const SILENT = 'annotation, annotation-xml, script, style';
export const NO_VOICES = 'Read aloud needs a voice, and this browser has none. On Linux, install '
  + 'speech-dispatcher and espeak-ng (Debian and Ubuntu: sudo apt install speech-dispatcher espeak-ng), '
  + 'then restart the browser. On Windows and macOS the browser uses the system\'s voices.';
export const NO_SPEECH = 'This browser cannot read aloud (it has no Web Speech API).';

const synth = () => globalThis.speechSynthesis;

/** The text of `block` to speak and where each piece of it is: {text, map: [{node, start}]}. */
function speakable(block) {
  const map = [];
  let text = '';
  const walker = block.ownerDocument.createTreeWalker(block, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && n.parentElement.closest(SILENT) ? NodeFilter.FILTER_REJECT
      : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    map.push({ node: n, start: text.length });
    text += n.data;
  }
  return { text, map };
}

/** [{start, end, text}] sentences of `text` (trimmed, none blank). */
export function sentences(text, lang) {
  const out = [];
  const push = (start, end) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s])) s += 1;
    while (e > s && /\s/.test(text[e - 1])) e -= 1;
    if (e > s) out.push({ start: s, end: e, text: text.slice(s, e).replace(/\s+/g, ' ') });
  };
  if (typeof Intl.Segmenter === 'function') {
    let seg;
    try {
      seg = new Intl.Segmenter(lang || undefined, { granularity: 'sentence' });
    } catch {
      seg = new Intl.Segmenter(undefined, { granularity: 'sentence' });
    }
    for (const { index, segment } of seg.segment(text)) push(index, index + segment.length);
  } else {
    const re = /[^.!?]+(?:[.!?]+|$)/g;
    for (let m = re.exec(text); m && m[0]; m = re.exec(text)) push(m.index, m.index + m[0].length);
  }
  return out;
}

/** A Range over characters [start, end) of a speakable() text. */
function rangeOf(doc, map, start, end) {
  const at = (offset) => {
    let k = map.length - 1;
    while (k > 0 && map[k].start > offset) k -= 1;
    const { node } = map[k];
    return [node, Math.min(node.data.length, Math.max(0, offset - map[k].start))];
  };
  const range = doc.createRange();
  const [sNode, sOff] = at(start);
  const [eNode, eOff] = at(Math.max(start, end - 1));
  range.setStart(sNode, sOff);
  range.setEnd(eNode, Math.min(eNode.data.length, eOff + 1));
  return range;
}

/**
 * Read aloud for the reader page. `els`: {root, title, content, open, panel, play, prev, next,
 * stop, rate, voice, toolbarHeight()};
 * `say(message, {error})` writes the status line; `change(prefs)` saves preferences.
 * Returns {reset(), applyPrefs(prefs), key(event) → handled, stop(), state()}.
 */
export function setupNarration({ els, say, change, lang = () => '' }) {
  const doc = els.root.ownerDocument;
  const st = {
    mode: 'idle', blocks: [], block: -1, sentence: -1, gen: 0, prefs: { voice: '', rate: 1 },
    parts: null, voicesKnown: false, noVoices: false, spoken: [],
  };
  const highlights = globalThis.CSS && CSS.highlights && typeof globalThis.Highlight === 'function' ? CSS.highlights : null;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  const me = `${Date.now()}-${Math.random()}`;

  function setMode(mode) {
    st.mode = mode;
    els.root.dataset.narrate = mode;
    els.play.setAttribute('aria-pressed', String(mode === 'paused'));
    els.play.textContent = mode === 'paused' ? 'Resume' : 'Pause';
    els.panel.hidden = mode === 'idle';
    els.open.setAttribute('aria-expanded', String(mode !== 'idle'));
    els.open.textContent = mode === 'playing' ? 'Pause reading' : mode === 'paused' ? 'Resume reading' : 'Read aloud';
  }

  function clearMarks() {
    if (highlights) {
      highlights.delete('pith-sentence');
      highlights.delete('pith-word');
    }
    for (const el of doc.querySelectorAll('[data-narrating]')) el.removeAttribute('data-narrating');
  }

  function blocks() {
    const inner = [...els.content.querySelectorAll(BLOCKS)].filter((el) => !el.querySelector(BLOCKS));
    return [els.title, ...inner].filter((el) => sentences(speakable(el).text, lang()).length);
  }

  /** Scroll the sentence to the middle of the window when any of it is off screen (or under the toolbar). */
  function keepInView(range) {
    const rect = range.getBoundingClientRect();
    const top = els.toolbarHeight();
    if (rect.top >= top && rect.bottom <= globalThis.innerHeight) return;
    const smooth = !globalThis.matchMedia('(prefers-reduced-motion: reduce)').matches;
    globalThis.scrollBy({ top: rect.top - (globalThis.innerHeight - rect.height) / 2, behavior: smooth ? 'smooth' : 'auto' });
  }

  function mark(name, range) {
    if (highlights) highlights.set(name, new Highlight(range));
  }

  /**
   * The voice that reads: the one chosen in the menu; else a voice on this machine
   * (localService) for the page's language, else any voice on this machine; else none
   * (the browser's default). An online voice speaks only when the person picks it.
   */
  function chosenVoice() {
    const s = synth();
    const voices = s ? s.getVoices() : [];
    const chosen = voices.find((v) => v.voiceURI === st.prefs.voice);
    if (chosen) return chosen;
    const local = voices.filter((v) => v.localService);
    const want = (lang() || '').toLowerCase().split('-')[0];
    return local.find((v) => want && String(v.lang).toLowerCase().split(/[-_]/)[0] === want) || local[0] || null;
  }

  /** Speak block `i` from its sentence `from`: one utterance per sentence, queued. */
  function speakBlock(i, from = 0) {
    const s = synth();
    st.gen += 1;
    const gen = st.gen;
    s.cancel();
    clearMarks();
    if (i < 0 || i >= st.blocks.length) {
      finish();
      return;
    }
    const block = st.blocks[i];
    const parts = speakable(block);
    const list = sentences(parts.text, lang());
    st.block = i;
    st.sentence = from;
    st.parts = parts;
    block.setAttribute('data-narrating', 'true');
    const voice = chosenVoice();
    const Utterance = globalThis.SpeechSynthesisUtterance;
    setMode('playing');
    list.slice(from).forEach((sentence, k) => {
      const index = from + k;
      const u = new Utterance(sentence.text);
      u.lang = (voice && voice.lang) || lang() || '';
      if (voice) u.voice = voice;
      u.rate = st.prefs.rate;
      u.onstart = () => {
        if (gen !== st.gen) return;
        st.sentence = index;
        const range = rangeOf(doc, parts.map, sentence.start, sentence.end);
        mark('pith-sentence', range);
        if (highlights) highlights.delete('pith-word');
        keepInView(range);
      };
      u.onboundary = (e) => {
        if (gen !== st.gen || (e.name && e.name !== 'word')) return;
        // charIndex is in the utterance's text (whitespace collapsed): find the word there.
        const said = sentence.text;
        const word = /\S+/.exec(said.slice(e.charIndex)) || [''];
        const before = said.slice(0, e.charIndex).replace(/\s+/g, ' ');
        const pos = locate(parts.text, sentence.start, before.length);
        const len = e.charLength > 0 ? e.charLength : word[0].length;
        if (len > 0) mark('pith-word', rangeOf(doc, parts.map, pos, Math.min(sentence.end, pos + len)));
      };
      u.onend = () => {
        if (gen !== st.gen) return;
        if (highlights) highlights.delete('pith-word');
        if (index === list.length - 1) speakBlock(i + 1);     // the paragraph's last sentence
      };
      u.onerror = (e) => {
        if (gen !== st.gen || e.error === 'interrupted' || e.error === 'canceled') return;
        say(`Read aloud stopped: the voice failed (${e.error || 'unknown error'}).`, { error: true });
        stop();
      };
      st.spoken.push(sentence.text);
      s.speak(u);
    });
  }

  /** Offset in `text` of the character `n` characters (whitespace collapsed) after `start`. */
  function locate(text, start, n) {
    let k = start;
    let seen = 0;
    let space = false;
    while (k < text.length && seen < n) {
      const ws = /\s/.test(text[k]);
      if (!(ws && space)) seen += 1;
      space = ws;
      k += 1;
    }
    while (k < text.length && /\s/.test(text[k])) k += 1;
    return k;
  }

  function finish() {
    st.gen += 1;
    clearMarks();
    st.block = -1;
    setMode('idle');
  }

  function stop() {
    const s = synth();
    st.gen += 1;
    if (s) s.cancel();
    finish();
  }

  /**
   * Ask the browser for its voices, once, at the first use: asking costs the reader's
   * opening (Chromium starts its speech back end), and most readings never speak.
   */
  let asked = false;
  function askVoices() {
    if (asked) return;
    asked = true;
    const s = synth();
    if (s && typeof s.addEventListener === 'function') s.addEventListener('voiceschanged', fillVoices);
    setTimeout(() => {
      st.voicesKnown = true;
      fillVoices();
      if (!(synth() && synth().getVoices().length)) els.root.dataset.voices = 'none';
    }, VOICE_WAIT_MS);
    fillVoices();
  }

  /** Resolves once the voice list is known (a voice listed, or VOICE_WAIT_MS passed). */
  function voicesSettled() {
    askVoices();
    const s = synth();
    if (st.voicesKnown || (s && s.getVoices().length)) return Promise.resolve();
    return new Promise((resolve) => {
      const poll = setInterval(() => {
        if (st.voicesKnown || synth().getVoices().length) {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
  }

  async function ready() {
    const s = synth();
    if (!s || typeof globalThis.SpeechSynthesisUtterance !== 'function') {
      say(NO_SPEECH, { error: true });
      return false;
    }
    await voicesSettled();
    if (!s.getVoices().length) {
      say(NO_VOICES, { error: true });
      els.root.dataset.voices = 'none';
      return false;
    }
    return true;
  }

  async function start(i = 0) {
    if (st.mode !== 'idle' || !(await ready())) return;
    fillVoices();
    st.blocks = blocks();
    if (!st.blocks.length) {
      say('There is no text to read aloud.');
      return;
    }
    if (channel) channel.postMessage({ type: 'start', from: me });
    speakBlock(Math.min(Math.max(i, 0), st.blocks.length - 1));
  }

  function toggle() {
    const s = synth();
    if (st.mode === 'playing') {
      s.pause();
      setMode('paused');
    } else if (st.mode === 'paused') {
      if (channel) channel.postMessage({ type: 'start', from: me });
      s.resume();
      setMode('playing');
    } else {
      start(0);
    }
  }

  function skip(step) {
    if (st.mode === 'idle') return;
    if (channel) channel.postMessage({ type: 'start', from: me });
    const to = st.block + step;
    if (to < 0) speakBlock(0);
    else if (to >= st.blocks.length) stop();
    else speakBlock(to);
  }

  /** Restart the current sentence (a new rate or voice takes effect at once). */
  function restartSentence() {
    if (st.mode === 'idle') return;
    const paused = st.mode === 'paused';
    speakBlock(st.block, Math.max(0, st.sentence));
    if (paused) {
      synth().pause();
      setMode('paused');
    }
  }

  function fillVoices() {
    const s = synth();
    const voices = s ? s.getVoices() : [];
    if (voices.length) {
      st.voicesKnown = true;
      delete els.root.dataset.voices;
    }
    const options = [new Option('Automatic (a voice on this machine)', '')];
    for (const v of voices) options.push(new Option(`${v.name} (${v.lang})${v.localService ? '' : ' – online'}`, v.voiceURI));
    els.voice.replaceChildren(...options);
    els.voice.value = voices.some((v) => v.voiceURI === st.prefs.voice) ? st.prefs.voice : '';
  }

  // --- wiring -------------------------------------------------------------------------
  els.rate.replaceChildren(...RATES.map((r) => new Option(`${r}×`, String(r))));
  els.play.addEventListener('click', toggle);
  els.stop.addEventListener('click', stop);
  els.prev.addEventListener('click', () => skip(-1));
  els.next.addEventListener('click', () => skip(1));
  els.rate.addEventListener('change', () => change({ rate: Number(els.rate.value) }));
  els.voice.addEventListener('change', () => change({ voice: els.voice.value }));
  if (channel) {
    channel.onmessage = (e) => {
      if (e.data && e.data.type === 'start' && e.data.from !== me && st.mode !== 'idle') stop();
    };
  }
  globalThis.addEventListener('pagehide', stop);
  setMode('idle');

  return {
    /** New content: whatever was being read is stopped. */
    reset() {
      if (st.mode !== 'idle') stop();
    },
    applyPrefs(prefs) {
      const changed = prefs.rate !== st.prefs.rate || prefs.voice !== st.prefs.voice;
      st.prefs = { voice: prefs.voice, rate: prefs.rate };
      els.rate.value = String(RATES.reduce((a, b) => (Math.abs(b - prefs.rate) < Math.abs(a - prefs.rate) ? b : a)));
      if ([...els.voice.options].some((o) => o.value === prefs.voice)) els.voice.value = prefs.voice;
      if (changed) restartSentence();
    },
    /** A key of the reader page: true when read aloud used it. */
    key(event) {
      if (event.key === ' ' && !event.shiftKey) {
        toggle();
        return true;
      }
      if (st.mode === 'idle') return false;
      if (event.key === 'ArrowRight') skip(1);
      else if (event.key === 'ArrowLeft') skip(-1);
      else if (event.key === 'Escape') stop();
      else return false;
      return true;
    },
    stop,
    toggle,
    state: () => ({ mode: st.mode, block: st.block, sentence: st.sentence, blocks: st.blocks.length }),
  };
}
