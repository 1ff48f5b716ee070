/**
 * new-game — the New game dialog: the opponent, the board, the clock; the choices are
 * remembered (localStorage) for next time.
 *
 * main.js loads it when the dialog is first asked for: a game opened by its link (/g/<id>)
 * may never ask, and /play/triangles, where it opens at once, preloads it (its template).
 * It imports nothing: what it uses of the page comes with it, so the modules it would share
 * with the page stay in the page's one file (esbuild would move them to a chunk of their
 * own, a request more and 1.4 KB more on every Triangles page).
 *
 *   const menu = new NewGameMenu(dialog, page)
 *     page: {t, el, openDialog, closeDialog, catalog, onLook(look), keepsOnlineGame()}
 *   await menu.ask({number?, look}) → null (closed, or keepsOnlineGame(): the player keeps
 *       to the online game still on) or
 *       {kind: "computer"|"human"|"online", params: {opponent, field, stars, again, clock?}, public}
 *     The time control is offered for online games only, its choices from the catalog.
 *     With a game number the board is fixed by the number (the server reads it): field and
 *     stars are not asked.
 */

/**
 * @typedef {object} PageParts
 * @property {(key: string, vars?: object) => string} t
 * @property {Function} el
 * @property {(dialog: HTMLDialogElement) => Promise<string>} openDialog
 * @property {(dialog: HTMLDialogElement, value?: string) => void} closeDialog
 * @property {any} catalog the game's catalog entry (the page config's)
 * @property {(look: string) => void} onLook
 * @property {() => Promise<boolean>} keepsOnlineGame
 */

const STORE = 'triangles.new';

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

export class NewGameMenu {
  /** @param {HTMLDialogElement} dialog @param {PageParts} page */
  constructor(dialog, page) {
    const { closeDialog, catalog } = page;
    this.dialog = dialog;
    this.page = page;
    // the catalog entry that came with the page: the star counts each field offers, the levels
    this.catalog = catalog;
    this.counts = catalog.params?.stars?.by_field ?? {};
    this.levels = catalog.levels ?? [];
    this.kinds = [...new Set(Object.values(catalog.kinds ?? {}))];
    this.clocks = catalog.params?.clock?.choices ?? [];
    this.clockFor = catalog.params?.clock?.for ?? [];
    this.ratedFor = catalog.params?.rated?.for ?? [];
    this.ratedClocks = catalog.params?.rated?.clocks ?? []; // the clocks a rated game may have
    dialog.querySelector('[data-action="close"]')?.addEventListener('click', () => closeDialog(dialog, 'cancel'));
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
      input.addEventListener('change', () => input.checked && page.onLook(input.value));
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
    const { t, el } = this.page;
    const counts = this.counts[field];
    const chosen = counts.includes(Number(stars)) ? Number(stars) : counts[0];
    this.starsBox.replaceChildren(
      ...counts.map((n) => el('label', {},
        el('input', { type: 'radio', name: 'tri-stars', value: String(n), checked: n === chosen }),
        el('span', {}, t('games.triangles.stars', { n })))),
    );
  }

  renderClocks(chosen) {
    const { t, el } = this.page;
    const pick = this.clocks.includes(chosen) ? chosen : this.catalog.params?.clock?.default;
    this.dialog.querySelector('#tri-new-clocks').replaceChildren(
      ...this.clocks.map((name) => el('label', {},
        el('input', { type: 'radio', name: 'tri-clock', value: name, checked: name === pick }),
        el('span', {}, t(`games.triangles.clock.choice.${name}`)))),
    );
  }

  sync() {
    const kind = this.value('tri-kind');
    this.dialog.querySelector('#tri-new-clock').hidden = !this.clocks.length || !this.clockFor.includes(kind);
    this.dialog.querySelector('#tri-new-rated-row').hidden = !this.ratedFor.includes(kind) || !this.ratedClocks.includes(this.value('tri-clock'));
    this.dialog.querySelector('#tri-new-level').hidden = kind !== 'computer';
    this.dialog.querySelector('#tri-new-public-row').hidden = kind !== 'online';
    const field = this.value('tri-fieldshape') || 'phone';
    const current = this.value('tri-stars');
    if (!current || !this.counts[field].includes(Number(current))) this.renderStars(field, this.counts[field][0]);
    this.dialog.querySelector('#tri-new-start').textContent = this.page.t(
      kind === 'online' ? 'games.triangles.new.start_online' : 'games.triangles.new.start',
    );
  }

  async ask({ number = null, look = 'nebula' } = {}) {
    // an online game still on: the player's clock runs while they choose, so ask first
    if (await this.page.keepsOnlineGame()) return null;
    const saved = remembered();
    const field = this.counts[saved.field] ? saved.field : this.catalog.params?.field?.default;
    this.check('tri-kind', this.kinds.includes(saved.kind) ? saved.kind : this.catalog.kinds?.[this.catalog.params?.opponent?.default]);
    this.check('tri-level', this.levels.includes(saved.level) ? saved.level : this.levels[0]);
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
    note.textContent = number ? this.page.t('games.triangles.new.number', { number }) : '';
    this.check('tri-look-menu', look);
    this.sync();
    return this.page.openDialog(this.dialog).then((result) => {
      if (result !== 'start') return null;
      const kind = this.value('tri-kind');
      const level = this.value('tri-level') || this.levels[0];
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
      const timed = this.clockFor.includes(kind) && choice.clock;
      return {
        kind,
        params: {
          opponent: kind === 'computer' ? level : kind,
          field: choice.field,
          stars: choice.stars,
          again: choice.again,
          ...(timed ? { clock: choice.clock } : {}),
          ...(timed && this.ratedClocks.includes(choice.clock) && choice.rated ? { rated: true } : {}),
        },
        public: kind === 'online' && choice.public,
      };
    });
  }
}
