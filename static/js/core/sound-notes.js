/**
 * sound-notes — the sounds themselves (core/sound.js loads this module when a page first
 * needs it: a page's first visit does not carry them).
 *
 *   play(name)   the notes (Web Audio oscillators) and the touch pulse (navigator.vibrate,
 *                on touch screens) of one sound; nothing for a name it does not know
 */

// [frequency Hz, start s, length s] notes, a wave shape and a vibration pattern (ms)
const SOUNDS = {
  select: { notes: [[660, 0, 0.04]], wave: 'sine', gain: 0.05, buzz: 8 },
  place: { notes: [[220, 0, 0.07]], wave: 'triangle', gain: 0.12, buzz: 12 },
  clear: { notes: [[523, 0, 0.08], [784, 0.06, 0.12]], wave: 'triangle', gain: 0.1, buzz: [20, 30, 20] },
  combo: { notes: [[523, 0, 0.07], [659, 0.06, 0.07], [784, 0.12, 0.07], [1047, 0.18, 0.14]], wave: 'triangle', gain: 0.1, buzz: [20, 30, 20, 30, 40] },
  pair: { notes: [[587, 0, 0.06], [880, 0.05, 0.1]], wave: 'sine', gain: 0.1, buzz: 15 },
  line: { notes: [[330, 0, 0.06]], wave: 'sine', gain: 0.08, buzz: 10 },
  triangle: { notes: [[440, 0, 0.08], [660, 0.07, 0.14]], wave: 'triangle', gain: 0.1, buzz: [25, 30, 25] },
  win: { notes: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.3]], wave: 'triangle', gain: 0.1, buzz: [40, 60, 40, 60, 80] },
  loss: { notes: [[392, 0, 0.16], [330, 0.15, 0.16], [262, 0.3, 0.3]], wave: 'sine', gain: 0.1, buzz: [60, 80, 120] },
  refused: { notes: [[180, 0, 0.08], [150, 0.07, 0.1]], wave: 'square', gain: 0.04, buzz: [30, 40, 30] },
};

let context = null;

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    context = new Context();
  } catch {
    context = null;
  }
  return context;
}

export function play(name) {
  const sound = SOUNDS[name];
  if (!sound) return;
  if (navigator.vibrate && matchMedia('(pointer: coarse)').matches) {
    try {
      navigator.vibrate(sound.buzz);
    } catch {
      /* not allowed before a gesture */
    }
  }
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  const start = ctx.currentTime + 0.01;
  for (const [frequency, at, length] of sound.notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = sound.wave;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(sound.gain, start + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.02);
  }
}
