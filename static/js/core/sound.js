/**
 * sound — short generated sounds (Web Audio: a few oscillator notes, no files) and touch
 * pulses (navigator.vibrate where it exists) for what happens in a game, and the one sound
 * toggle in the header (<button data-action="sound" aria-pressed>), remembered across visits.
 *
 *   feedback(name)   "place" | "clear" | "combo" | "pair" | "line" | "triangle" | "win" |
 *                    "loss" | "select" | "refused"; silent when the toggle is off
 *   soundOn()        the toggle's state
 *   initSoundToggle()  wires the header button (shell.js calls it on every page)
 *
 * The sounds themselves (core/sound-notes.js, a file of their own: <html data-sound-notes>)
 * are asked for at the page's first touch, click or key (no sound plays before one:
 * browsers keep audio and vibration for pages the player has used), so a first visit does
 * not carry them.
 */

const KEY = 'site.sound';
/** @type {Promise<typeof import('./sound-notes.js')> | null} */
let notes = null;

function loadNotes() {
  // the build's hashed copy (the page names it), or the source beside this module
  notes ??= import(document.documentElement.dataset.soundNotes || new URL('./sound-notes.js', import.meta.url).href);
  return notes;
}

export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function feedback(name) {
  if (!soundOn()) return;
  loadNotes()
    .then(({ play }) => play(name))
    .catch(() => {
      notes = null; // offline before the file came: silent now, asked again next time
    });
}

export function initSoundToggle(root = document) {
  for (const kind of ['pointerdown', 'keydown']) {
    addEventListener(kind, loadNotes, { once: true, capture: true, passive: true });
  }
  for (const button of root.querySelectorAll('[data-action="sound"]')) {
    button.setAttribute('aria-pressed', String(soundOn()));
    button.addEventListener('click', () => {
      const on = !soundOn();
      try {
        localStorage.setItem(KEY, on ? 'on' : 'off');
      } catch {
        /* the toggle lasts for this page only */
      }
      button.setAttribute('aria-pressed', String(on));
      if (on) feedback('select');
    });
  }
}
