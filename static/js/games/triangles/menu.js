/**
 * menu — the dialogs around a game: New game, the display name, and "Resign?".
 *
 *   const menu = new NewGameMenu(dialog, {onLook})
 *   await menu.ask({number?, look}) → null (closed, or the player keeps to the online game
 *       still on: asked first in #tri-leave) or
 *       {kind: "computer"|"human"|"online", params: {opponent, field, stars, again, clock?}, public}
 *     The time control is offered for online games only, its choices from the catalog.
 *     The choices are remembered (localStorage) for next time. With a game number the
 *     board is fixed by the number (the server reads it): field and stars are not asked.
 *   await askName(dialog, {title?, text?}) → the saved name, or null when closed
 *   await confirmResign(dialog) → true / false
 */

import { api } from '../../core/api.js';
import { t } from '../../core/i18n.js';
import { GameMenu } from '../../core/menu.js';
import { closeDialog, el, openDialog, pageConfig } from '../../core/ui.js';
import { ctx, mode } from './state.js';
/** @import { Me } from '../../types/wire' */

const STORE = 'triangles.new';
// the catalog entry that came with the page: the star counts each field offers, the levels
const CATALOG = pageConfig().catalog ?? {};
const COUNTS = CATALOG.params?.stars?.by_field ?? {};
const LEVELS = CATALOG.levels ?? [];
const KINDS = [...new Set(Object.values(CATALOG.kinds ?? {}))];
const CLOCKS = CATALOG.params?.clock?.choices ?? [];
const CLOCK_FOR = CATALOG.params?.clock?.for ?? [];
const RATED_FOR = CATALOG.params?.rated?.for ?? [];
const RATED_CLOCKS = CATALOG.params?.rated?.clocks ?? []; // the clocks a rated game may have

function remembered() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || '{}') || {};
  } catch {
    return {};
  }
}

function remember(choice) {
  try {
    localStorage.setItem(STORE, JSON.stringify(choice));
  } catch {
    /* storage may be blocked */
  }
}

export class NewGameMenu extends GameMenu {
  /** @param {HTMLDialogElement} dialog @param {{onLook?: Function}} [hooks] */
  constructor(dialog, { onLook } = {}) {
    super(dialog);
    this.form = dialog.querySelector('#tri-new-form');
    this.starsBox = dialog.querySelector('#tri-new-stars');
    this.again = dialog.querySelector('#tri-new-again');
    this.pub = dialog.querySelector('#tri-new-public');
    this.rated = dialog.querySelector('#tri-new-rated');
    dialog.querySelector('#tri-new-clocks').addEventListener('change', () => this.sync());
    for (const input of dialog.querySelectorAll('input[name="tri-kind"], input[name="tri-fieldshape"]')) {
      input.addEventListener('change', () => this.sync());
    }
    for (const input of dialog.querySelectorAll('input[data-look]')) {
      input.addEventListener('change', () => input.checked && onLook?.(input.value));
    }
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      closeDialog(dialog, 'start');
    });
  }

  value(name) {
    return this.dialog.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
  }

  check(name, value) {
    for (const input of this.dialog.querySelectorAll(`input[name="${name}"]`)) input.checked = input.value === String(value);
  }

  renderStars(field, stars) {
    const counts = COUNTS[field];
    const chosen = counts.includes(Number(stars)) ? Number(stars) : counts[0];
    this.starsBox.replaceChildren(
      ...counts.map((n) => el('label', {},
        el('input', { type: 'radio', name: 'tri-stars', value: String(n), checked: n === chosen }),
        el('span', {}, t('games.triangles.stars', { n })))),
    );
  }

  renderClocks(chosen) {
    const pick = CLOCKS.includes(chosen) ? chosen : CATALOG.params?.clock?.default;
    this.dialog.querySelector('#tri-new-clocks').replaceChildren(
      ...CLOCKS.map((name) => el('label', {},
        el('input', { type: 'radio', name: 'tri-clock', value: name, checked: name === pick }),
        el('span', {}, t(`games.triangles.clock.choice.${name}`)))),
    );
  }

  sync() {
    const kind = this.value('tri-kind');
    this.dialog.querySelector('#tri-new-clock').hidden = !CLOCKS.length || !CLOCK_FOR.includes(kind);
    this.dialog.querySelector('#tri-new-rated-row').hidden = !RATED_FOR.includes(kind) || !RATED_CLOCKS.includes(this.value('tri-clock'));
    this.dialog.querySelector('#tri-new-level').hidden = kind !== 'computer';
    this.dialog.querySelector('#tri-new-public-row').hidden = kind !== 'online';
    const field = this.value('tri-fieldshape') || 'phone';
    const current = this.value('tri-stars');
    if (!current || !COUNTS[field].includes(Number(current))) this.renderStars(field, COUNTS[field][0]);
    this.dialog.querySelector('#tri-new-start').textContent = t(
      kind === 'online' ? 'games.triangles.new.start_online' : 'games.triangles.new.start',
    );
  }

  async ask({ number = null, look = 'nebula' } = {}) {
    // an online game still on: the player's clock runs while they choose, so ask first
    if (onlineGameOn() && !(await confirmResign(document.getElementById('tri-leave')))) return null;
    const saved = remembered();
    const field = COUNTS[saved.field] ? saved.field : CATALOG.params?.field?.default;
    this.check('tri-kind', KINDS.includes(saved.kind) ? saved.kind : CATALOG.kinds?.[CATALOG.params?.opponent?.default]);
    this.check('tri-level', LEVELS.includes(saved.level) ? saved.level : LEVELS[0]);
    this.check('tri-fieldshape', field);
    this.renderStars(field, saved.stars);
    this.renderClocks(saved.clock);
    this.again.checked = Boolean(saved.again);
    this.pub.checked = Boolean(saved.public);
    this.rated.checked = Boolean(saved.rated);
    // A game number fixes the board: the field and the stars are not asked for.
    this.dialog.querySelector('#tri-new-size').hidden = Boolean(number);
    const note = this.dialog.querySelector('#tri-new-number');
    note.hidden = !number;
    note.textContent = number ? t('games.triangles.new.number', { number }) : '';
    this.check('tri-look-menu', look);
    this.sync();
    return this.show().then((result) => {
      if (result !== 'start') return null;
      const kind = this.value('tri-kind');
      const level = this.value('tri-level') || LEVELS[0];
      const choice = {
        kind,
        level,
        field: this.value('tri-fieldshape'),
        stars: Number(this.value('tri-stars')),
        again: this.again.checked,
        public: this.pub.checked,
        clock: this.value('tri-clock'),
        rated: this.rated.checked,
      };
      if (!number) remember(choice);
      else remember({ ...saved, kind, level, again: choice.again, public: choice.public, clock: choice.clock });
      const timed = CLOCK_FOR.includes(kind) && choice.clock;
      return {
        kind,
        params: {
          opponent: kind === 'computer' ? level : kind,
          field: choice.field,
          stars: choice.stars,
          again: choice.again,
          ...(timed ? { clock: choice.clock } : {}),
          ...(timed && RATED_CLOCKS.includes(choice.clock) && choice.rated ? { rated: true } : {}),
        },
        public: kind === 'online' && choice.public,
      };
    });
  }
}

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

function onlineGameOn() {
  const session = ctx.session;
  const view = session?.view;
  return Boolean(view && !view.over && session.status === 'active' && session.seats.length && mode() === 'online');
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
