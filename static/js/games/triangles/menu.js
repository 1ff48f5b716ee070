/**
 * menu — the small dialogs around a game: the display name, "Resign?" and "Leave the game
 * on?" (New game is new-game.js's).
 *
 *   await askName(dialog, {title?, text?}) → the saved name, or null when closed
 *   await confirmResign(dialog) → true / false
 *   await keepsOnlineGame() → true when an online game of the player's is on and they keep
 *       to it (asked in #tri-leave: their clock runs while they would choose a new one)
 */

import { api } from '../../core/api.js';
import { t } from '../../core/i18n.js';
import { closeDialog, openDialog } from '../../core/ui.js';
import { ctx, mode } from './state.js';
/** @import { Me } from '../../types/wire' */

let knownName;

async function currentName() {
  if (knownName !== undefined) return knownName;
  try {
    knownName = /** @type {Me} */ (await api('GET', '/api/me')).name ?? null;
  } catch {
    knownName = null;
  }
  return knownName;
}

/** Asks for a display name (when there is none yet) and saves it with PUT /api/me. */
/** @param {HTMLDialogElement} dialog @param {{title?: string, text?: string, button?: string}} [words] */
export async function askName(dialog, { title, text, button } = {}) {
  const name = await currentName();
  if (name) return name;
  const form = dialog.querySelector('#tri-name-form');
  const input = dialog.querySelector('#tri-name-input');
  const error = dialog.querySelector('#tri-name-error');
  const ok = dialog.querySelector('#tri-name-ok');
  dialog.querySelector('#tri-name-title').textContent = title || t('games.triangles.name.title');
  dialog.querySelector('#tri-name-text').textContent = text || t('games.triangles.name.text');
  ok.textContent = button || t('common.continue');
  const showError = (message) => {
    error.textContent = message || '';
    error.hidden = !message;
    input.setAttribute('aria-invalid', String(Boolean(message)));
  };
  showError('');
  return new Promise((resolve) => {
    let saved = null;
    const onSubmit = async (event) => {
      event.preventDefault();
      const value = input.value.trim();
      if (!value) {
        showError(t('games.triangles.name.empty'));
        input.focus();
        return;
      }
      ok.disabled = true;
      try {
        saved = (await api('PUT', '/api/me', { name: value })).name;
        knownName = saved;
        closeDialog(dialog, 'ok');
      } catch (problem) {
        showError(problem.code === 'bad_name' ? t('games.triangles.name.bad') : problem.message);
        input.focus();
      } finally {
        ok.disabled = false;
      }
    };
    const onClose = () => closeDialog(dialog, 'cancel');
    const close = dialog.querySelector('[data-action="close"]');
    form.addEventListener('submit', onSubmit);
    close.addEventListener('click', onClose);
    openDialog(dialog).then(() => {
      form.removeEventListener('submit', onSubmit);
      close.removeEventListener('click', onClose);
      resolve(saved);
    });
    input.focus();
  });
}

export async function keepsOnlineGame() {
  const session = ctx.session;
  const view = session?.view;
  const on = Boolean(view && !view.over && session.status === 'active' && session.seats.length && mode() === 'online');
  return on && !(await confirmResign(document.getElementById('tri-leave')));
}

/** A yes / no dialog (data-action="yes" | "no"): "Resign?", "Leave the game on?". */
export function confirmResign(dialog) {
  return new Promise((resolve) => {
    const yes = dialog.querySelector('[data-action="yes"]');
    const no = dialog.querySelector('[data-action="no"]');
    const onYes = () => closeDialog(dialog, 'yes');
    const onNo = () => closeDialog(dialog, 'no');
    yes.addEventListener('click', onYes);
    no.addEventListener('click', onNo);
    openDialog(dialog).then((value) => {
      yes.removeEventListener('click', onYes);
      no.removeEventListener('click', onNo);
      resolve(value === 'yes');
    });
  });
}
