/**
 * notify — the "Notifications" switches of /me: one per kind of notice (your_turn,
 * joined, rematch). Turning one on asks the browser's permission (only then), subscribes
 * this browser with the server's VAPID key (GET /api/push/key) and stores the kinds
 * (POST /api/me/push); turning the last one off removes the subscription (DELETE).
 * The kinds chosen are remembered in this browser; the subscription is sent again when
 * the page's language changed, so notices come in the language last used here.
 *
 * Push follows the player, not the device: a claim of another player's transfer code
 * sends this browser's endpoint (pushEndpoint()), so the server stops sending the
 * notices of the player it was here, and subscribeAgain() then keeps the kinds chosen
 * here for the player it became.
 *
 * Page state: #notify[data-notify] loading|ready|busy|on|refused|unsupported|server_off|failed
 */

import { api } from '../core/api.js';
import { lang, t } from '../core/i18n.js';
import { storage } from '../core/storage.js';
/** @import { PushKey } from '../types/wire' */

const MESSAGES = {
  on: 'me.notify.on',
  refused: 'me.notify.refused',
  unsupported: 'me.notify.unsupported',
  server_off: 'me.notify.server_off',
  failed: 'me.notify.failed',
};
const saved = storage('notify.');
const section = document.getElementById('notify');
const switches = [...section.querySelectorAll('[data-notify-kind]')];
const status = document.getElementById('notify-status');
let publicKey = null;

function show(state) {
  section.dataset.notify = state;
  const key = MESSAGES[state];
  status.hidden = !key;
  status.textContent = key ? t(key) : '';
  status.dataset.tone = state;
  switches.forEach((input) => {
    input.disabled = ['loading', 'busy', 'unsupported', 'server_off'].includes(state);
  });
}

function keyBytes(text) {
  const base64 = (text + '='.repeat((4 - (text.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const chosen = () => switches.filter((input) => input.checked).map((input) => input.dataset.notifyKind);

function check(kinds) {
  switches.forEach((input) => {
    input.checked = kinds.includes(input.dataset.notifyKind);
  });
}

async function subscription() {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

async function store(kinds) {
  let sub = await subscription();
  if (!kinds.length) {
    if (sub) {
      await api('DELETE', '/api/me/push', { endpoint: sub.endpoint });
      await sub.unsubscribe();
    }
    return 'ready';
  }
  if (!sub) {
    const registration = await navigator.serviceWorker.ready;
    sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  }
  const { endpoint, keys } = sub.toJSON();
  await api('POST', '/api/me/push', { endpoint, keys, kinds });
  return 'on';
}

async function changed(event) {
  const kinds = chosen();
  const previous = saved.get('kinds', []);
  show('busy');
  try {
    if (event.target.checked && Notification.permission !== 'granted') {
      const answer = await Notification.requestPermission();
      if (answer !== 'granted') {
        check(previous);
        show('refused');
        return;
      }
    }
    show(await store(kinds));
    saved.set('kinds', kinds);
    saved.set('lang', lang());
  } catch {
    check(previous);
    show('failed');
  }
}

async function start() {
  if (!('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window)) {
    show('unsupported');
    return;
  }
  try {
    publicKey = /** @type {PushKey} */ (await api('GET', '/api/push/key')).public_key;
  } catch (error) {
    show(error.code === 'push_off' ? 'server_off' : 'failed');
    return;
  }
  const kinds = Notification.permission === 'granted' && (await subscription()) ? saved.get('kinds', []) : [];
  check(kinds);
  show(kinds.length ? 'on' : Notification.permission === 'denied' ? 'refused' : 'ready');
  if (kinds.length && saved.get('lang') !== lang()) {
    store(kinds).then(() => saved.set('lang', lang()), () => undefined); // notices in today's language
  }
}

/** This browser's push endpoint, or null (no worker yet, no subscription, no support). */
export async function pushEndpoint() {
  try {
    if (!('serviceWorker' in navigator)) return null;
    const registration = await navigator.serviceWorker.getRegistration();
    const sub = registration?.pushManager ? await registration.pushManager.getSubscription() : null;
    return sub ? sub.endpoint : null;
  } catch {
    return null;
  }
}

/** After a claim (the cookie names the new player): the kinds chosen here, for them. */
export async function subscribeAgain() {
  const kinds = saved.get('kinds', []);
  if (!kinds.length || !publicKey || !('Notification' in window) || Notification.permission !== 'granted') return;
  show('busy');
  try {
    show(await store(kinds));
  } catch {
    // the player it became may have no room left (too_many_subscriptions): off here
    check([]);
    saved.set('kinds', []);
    show('failed');
  }
}

export function initNotify() {
  switches.forEach((input) => {
    input.addEventListener('change', changed);
  });
  start();
}
