/**
 * name-form — the player's name, in the lobby and on /me (templates/_name_form.html): filled
 * from GET /api/me, saved with PUT /api/me. The server decides what a name may be; a
 * refusal is told in the catalog's words for its code.
 *
 *   const form = initNameForm({onSaved(me)?})   wires #name-form, #name-input, #name-error,
 *                                               enables its button (off in the page until
 *                                               then) and says data-state="ready"
 *   await form.load()                           fills an empty field with the saved name;
 *                                               → the /api/me answer (null when it failed)
 */

import { api } from './api.js';
import { errorText } from './errors.js';
import { has, t } from './i18n.js';
import { toast } from './ui.js';
/** @import { Me } from '../types/wire' */

/** @param {{onSaved?: (me: Me) => void}} [hooks] */
export function initNameForm({ onSaved } = {}) {
  const form = document.getElementById('name-form');
  const input = document.getElementById('name-input');
  const note = document.getElementById('name-error');

  function showError(text) {
    note.textContent = text || '';
    note.hidden = !text;
    input.setAttribute('aria-invalid', String(Boolean(text)));
  }

  const button = form.querySelector('button[type="submit"]');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      const me = /** @type {Me} */ (await api('PUT', '/api/me', { name: input.value.trim() }));
      input.value = me.name;
      showError('');
      toast(t('lobby.name.saved'), { kind: 'success' });
      onSaved?.(me);
    } catch (error) {
      const key = `lobby.name.error.${error.code}`;
      showError(has(key) ? t(key) : errorText(null, error));
    } finally {
      button.disabled = false;
    }
  });
  input.addEventListener('input', () => showError(''));
  button.disabled = false;
  form.dataset.state = 'ready'; // for tests and tools

  return {
    async load() {
      try {
        const me = /** @type {Me} */ (await api('GET', '/api/me'));
        if (me?.name && !input.value) input.value = me.name;
        return me;
      } catch {
        return null; // the field stays empty; saving will report any problem
      }
    },
  };
}
