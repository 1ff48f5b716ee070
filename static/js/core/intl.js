/**
 * intl — Intl formatters without the first one's long task. The first date, number or
 * relative-time formatter of a renderer process loads ICU's locale data: 100–250 ms in one
 * task on a phone with the CPU 4× slower (measured with bench/long_tasks.py; PluralRules
 * does not need it). A worker (intl-worker.js) loads the data off the main thread; the
 * process's threads share it, so afterwards a formatter costs the page a few ms.
 *
 *   intlReady() → Promise resolved once the worker has loaded the data, or it failed or
 *                 took over TIMEOUT_MS (then the page's first formatter pays, as before)
 *   withIntl(promise) → the promise's value, once intlReady() has resolved too: for what
 *                 arrives (an API answer) and is then written with a formatter
 *   dayText(iso)  → "YYYY-MM-DD" as the page's language writes a day of the year ("7 December")
 */

import { lang } from './i18n.js';

const TIMEOUT_MS = 3000;
let ready = null;

export function intlReady() {
  ready ??= new Promise((resolve) => {
    let worker = null;
    const done = () => {
      worker?.terminate();
      resolve();
    };
    setTimeout(done, TIMEOUT_MS);
    try {
      // the build's hashed copy (the page names it), or the source beside this module
      const url = document.documentElement.dataset.intlWorker || new URL('./intl-worker.js', import.meta.url);
      worker = new Worker(url, { name: lang() });
      worker.onmessage = done;
      worker.onerror = done;
    } catch {
      done();
    }
  });
  return ready;
}

/** @template T @param {Promise<T>} promise @returns {Promise<T>} */
export async function withIntl(promise) {
  const [value] = await Promise.all([promise, intlReady()]);
  return value;
}

export function dayText(iso) {
  const [y, m, d] = iso.split('-').map(Number);
  return new Intl.DateTimeFormat(lang(), { day: 'numeric', month: 'long' }).format(new Date(y, m - 1, d));
}
