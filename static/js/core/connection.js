/**
 * connection — what a page shows of its connection to the server: <body data-connection>
 * ("online" | "offline", a hook tests and styles wait on) and, while offline, a banner in
 * the flow under the header whose height the game stages give up (--offline-h), so it
 * covers no control. core/session.js decides the state of a game page; watchConnection
 * does it for the pages that only read data (the lobby, /me). While offline, the actions
 * only the server can carry out (a new game: the server makes every game) are off and say
 * why: a button marked data-needs-server is disabled (its title the catalog's reason), and
 * a note marked data-offline-note beside it (common.offline.new_game) shows, while a
 * button of its parent shows; back online both return.
 *
 *   setConnection(state, text?)  text: the banner's words (a game page's by default)
 *   const lost = watchConnection(reload)
 *                                lost(error) → true for an answer that never came (status 0):
 *                                the page is offline (the banner) until the server answers
 *                                again (asked every 5 s and when the browser is back online),
 *                                then reload() runs; false for any other error (the page words it)
 *   offline() → bool             whether the page is offline now
 *   syncServerActions(root)      the state applied to root's marked buttons and notes (setConnection
 *                                does it for the document; a page calls it for what it shows later)
 */

import { api } from './api.js';
import { t } from './i18n.js';
import { el } from './ui.js';

const PROBE_MS = 5000; // how often a reading page asks whether the server is back

let bannerSize = null; // keeps --offline-h at the banner's height

export function offline() {
  return document.body.dataset.connection === 'offline';
}

/** @param {ParentNode} [root] */
export function syncServerActions(root = document) {
  const off = offline();
  for (const button of root.querySelectorAll('[data-needs-server]')) {
    button.disabled = off;
    if (off) button.title = t('common.offline.new_game');
    else button.removeAttribute('title');
  }
  for (const note of root.querySelectorAll('[data-offline-note]')) {
    const shown = [...(note.parentElement?.querySelectorAll('[data-needs-server]') ?? [])].some((b) => !b.hidden);
    note.hidden = !off || !shown;
  }
}

export function setConnection(state, text = t('common.conn.lost')) {
  document.body.dataset.connection = state;
  syncServerActions();
  let banner = document.getElementById('connection-banner');
  if (state === 'online') {
    bannerSize?.disconnect();
    banner?.remove();
    document.body.style.removeProperty('--offline-h');
    return;
  }
  if (!banner) {
    banner = el('div', { id: 'connection-banner', class: 'connection-banner', role: 'status', 'aria-live': 'polite' },
      el('span', { class: 'connection-banner__dot', 'aria-hidden': 'true' }),
      el('span', {}, text));
    // in the flow under the header: the game stages give up its height (--offline-h), at
    // once (the first frame with the banner lays the stage out without it otherwise, and a
    // busy page can show that frame for long), then whenever its height changes
    const header = document.querySelector('.site-header');
    if (header) header.after(banner);
    else document.body.prepend(banner);
    const giveUp = (node) => document.body.style.setProperty('--offline-h', `${node.offsetHeight}px`);
    giveUp(banner);
    bannerSize ??= new ResizeObserver(([entry]) => giveUp(/** @type {HTMLElement} */ (entry.target)));
    bannerSize.observe(banner);
  }
}

export function watchConnection(reload) {
  let offline = false;
  let timer = 0;
  async function probe() {
    clearTimeout(timer);
    if (!offline) return;
    try {
      await api('GET', '/api/catalog');
    } catch (error) {
      if (error.status === 0) {
        timer = setTimeout(probe, PROBE_MS);
        return;
      }
    }
    offline = false;
    setConnection('online');
    reload();
  }
  window.addEventListener('online', probe);
  return (error) => {
    if (error?.status !== 0) return false;
    if (!offline) {
      offline = true;
      setConnection('offline', t('common.conn.lost.page'));
      timer = setTimeout(probe, PROBE_MS);
    }
    return true;
  };
}
