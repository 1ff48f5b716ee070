/**
 * connection — what a page shows of its connection to the server: <body data-connection>
 * ("online" | "offline", a hook tests and styles wait on) and, while offline, a banner in
 * the flow under the header whose height the game stages give up (--offline-h), so it
 * covers no control. core/session.js decides the state; this module only shows it.
 *
 *   setConnection(state)
 */

import { t } from './i18n.js';
import { el } from './ui.js';

let bannerSize = null; // keeps --offline-h at the banner's height

export function setConnection(state) {
  document.body.dataset.connection = state;
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
      el('span', {}, t('common.conn.lost')));
    // in the flow under the header: the game stages give up its height (--offline-h)
    const header = document.querySelector('.site-header');
    if (header) header.after(banner);
    else document.body.prepend(banner);
    bannerSize ??= new ResizeObserver(([entry]) => {
      document.body.style.setProperty('--offline-h', `${entry.target.offsetHeight}px`);
    });
    bannerSize.observe(banner);
  }
}
