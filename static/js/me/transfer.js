/**
 * The device-transfer panel of /me: make a code (POST /api/me/transfer) and draw the
 * server's QR modules on a canvas (no QR logic here), or claim a code from another device
 * (POST /api/me/claim).
 *
 *   initTransfer({onClaimed}) — wires the panel; onClaimed() runs after a successful
 *       claim. Opened as /me?code=… (the QR code's URL), the server renders
 *       #switch-panel: who this browser is and who the code would make it. Nothing is
 *       claimed until the player presses its button (a link someone sent must not swap
 *       a player's identity for theirs); the code leaves the address bar at once.
 *       A claim carries this browser's push endpoint: the notices of the player it
 *       was stop coming here, and it subscribes again as the player it became.
 */

import { api } from '../core/api.js';
import { errorText } from '../core/errors.js';
import { has, lang, t } from '../core/i18n.js';
import { toast } from '../core/ui.js';
import { pushEndpoint, subscribeAgain } from './notify.js';
/** @import { TransferCode } from '../types/wire' */

const QUIET = 4; // modules of white border a scanner needs around the code
const DARK = '#10131f';
const LIGHT = '#ffffff';

/** Draw rows of 0/1 modules, crisp at the canvas's CSS size and the device's pixel ratio. */
export function drawQr(canvas, rows) {
  const size = rows.length + 2 * QUIET;
  const css = canvas.getBoundingClientRect().width || 200;
  const ratio = window.devicePixelRatio || 1;
  const scale = Math.max(1, Math.floor((css * ratio) / size));
  canvas.width = canvas.height = size * scale;
  canvas.dataset.modules = String(size); // the code's modules with the quiet zone
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = LIGHT;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = DARK;
  rows.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) ctx.fillRect((x + QUIET) * scale, (y + QUIET) * scale, scale, scale);
    });
  });
}

/** Become the code's player; push notices follow (see notify.js). */
async function claimCode(code) {
  const endpoint = await pushEndpoint();
  await api('POST', '/api/me/claim', endpoint ? { code, endpoint } : { code });
  await subscribeAgain();
}

function words(error) {
  const key = `me.devices.error.${error.code}`;
  return has(key) ? t(key) : errorText(null, error);
}

export function initTransfer({ onClaimed }) {
  const panel = document.querySelector('[data-transfer]');
  const make = panel.querySelector('[data-make-code]');
  const canvas = document.getElementById('transfer-qr');
  const codeText = document.getElementById('transfer-code');
  const expiry = document.getElementById('transfer-expiry');
  let expiryTimer = 0;
  let shown = null;

  make.addEventListener('click', async () => {
    make.disabled = true;
    try {
      shown = /** @type {TransferCode} */ (await api('POST', '/api/me/transfer'));
      panel.dataset.transfer = 'shown';
      codeText.textContent = shown.code;
      drawQr(canvas, shown.qr);
      const until = new Intl.DateTimeFormat(lang(), { timeStyle: 'short' }).format(shown.expires_ms);
      expiry.textContent = t('me.devices.expires', { time: until });
      make.textContent = t('me.devices.again');
      clearTimeout(expiryTimer);
      expiryTimer = setTimeout(() => {
        panel.dataset.transfer = 'expired';
        expiry.textContent = t('me.devices.expired');
      }, Math.max(0, shown.expires_ms - Date.now()));
    } catch (error) {
      toast(words(error), { kind: 'error' });
    } finally {
      make.disabled = false;
    }
  });
  window.addEventListener('resize', () => {
    if (shown && panel.dataset.transfer === 'shown') drawQr(canvas, shown.qr);
  });

  const form = document.getElementById('claim-form');
  const input = document.getElementById('claim-input');
  const problem = document.getElementById('claim-error');
  const showProblem = (text) => {
    problem.textContent = text || '';
    problem.hidden = !text;
    input.setAttribute('aria-invalid', String(Boolean(text)));
  };

  async function claim() {
    const code = input.value.replace(/[\s-]/g, '').toUpperCase();
    if (!code) return showProblem(t('me.devices.error.empty'));
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    form.dataset.claim = 'busy';
    try {
      await claimCode(code);
      form.dataset.claim = 'done';
      input.value = '';
      showProblem('');
      toast(t('me.devices.claimed'), { kind: 'success' });
      await onClaimed();
    } catch (error) {
      form.dataset.claim = 'error';
      showProblem(words(error));
    } finally {
      button.disabled = false;
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    claim();
  });
  input.addEventListener('input', () => showProblem(''));

  initSwitch(onClaimed);
}

/** The transfer link's confirmation (#switch-panel, rendered by the server). */
function initSwitch(onClaimed) {
  const url = new URL(location.href);
  if (url.searchParams.has('code')) {
    // The code is in the panel now: keep it out of the history, bookmarks and shares.
    url.searchParams.delete('code');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  const panel = document.getElementById('switch-panel');
  if (!panel) return;
  panel.querySelector('[data-switch-cancel]').addEventListener('click', (event) => {
    event.preventDefault(); // the page is /me already: just put the question away
    panel.remove();
  });
  const confirm = panel.querySelector('[data-switch-confirm]');
  if (!confirm) return; // the code cannot be used: the panel says why
  const problem = document.getElementById('switch-error');
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    panel.dataset.switch = 'busy';
    try {
      await claimCode(panel.dataset.code);
      panel.dataset.switch = 'done';
      panel.hidden = true;
      toast(t('me.devices.claimed'), { kind: 'success' });
      await onClaimed();
    } catch (error) {
      panel.dataset.switch = 'error';
      problem.textContent = words(error);
      problem.hidden = false;
      confirm.disabled = false;
    }
  });
}
