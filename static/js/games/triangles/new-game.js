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
 *   const menu = newGameMenu(dialog, page)
 *     page: {t, el, openDialog, closeDialog, catalog, onLook(look), keepsOnlineGame(), store}
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
 * @property {{get: Function, set: Function}} store the session's (core/storage.js): the
 *   choices are kept under "new"
 */

/** @param {HTMLDialogElement} dialog @param {PageParts} page @returns {{ask: Function}} */
export function newGameMenu(dialog, { t, el, openDialog, closeDialog, catalog, onLook, keepsOnlineGame, store }) {
  // the catalog entry that came with the page: the star counts each field offers, the levels
  const counts = catalog.params?.stars?.by_field ?? {};
  const levels = catalog.levels ?? [];
  const kinds = [...new Set(Object.values(catalog.kinds ?? {}))];
  const clocks = catalog.params?.clock?.choices ?? [];
  const clockFor = catalog.params?.clock?.for ?? [];
  const ratedFor = catalog.params?.rated?.for ?? [];
  const ratedClocks = catalog.params?.rated?.clocks ?? []; // the clocks a rated game may have
  const $ = (id) => dialog.querySelector(`#tri-new-${id}`);
  const [again, pub, rated] = ['again', 'public', 'rated'].map($);
  const value = (name) => dialog.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
  const check = (name, chosen) => {
    for (const input of dialog.querySelectorAll(`input[name="${name}"]`)) input.checked = input.value === String(chosen);
  };
  const radios = (name, choices, chosen, words) =>
    choices.map((choice) => el('label', {},
      el('input', { type: 'radio', name, value: String(choice), checked: choice === chosen }),
      el('span', {}, words(choice))));

  function renderStars(field, stars) {
    const offered = counts[field];
    const chosen = offered.includes(Number(stars)) ? Number(stars) : offered[0];
    $('stars').replaceChildren(...radios('tri-stars', offered, chosen, (n) => t('games.triangles.stars', { n })));
  }

  function renderClocks(chosen) {
    const pick = clocks.includes(chosen) ? chosen : catalog.params?.clock?.default;
    $('clocks').replaceChildren(...radios('tri-clock', clocks, pick, (name) => t(`games.triangles.clock.choice.${name}`)));
  }

  function sync() {
    const kind = value('tri-kind');
    $('clock').hidden = !clocks.length || !clockFor.includes(kind);
    $('rated-row').hidden = !ratedFor.includes(kind) || !ratedClocks.includes(value('tri-clock'));
    $('level').hidden = kind !== 'computer';
    $('public-row').hidden = kind !== 'online';
    const field = value('tri-fieldshape') || 'phone';
    const current = value('tri-stars');
    if (!current || !counts[field].includes(Number(current))) renderStars(field, counts[field][0]);
    $('start').textContent = t(kind === 'online' ? 'games.triangles.new.start_online' : 'games.triangles.new.start');
  }

  dialog.querySelector('[data-action="close"]')?.addEventListener('click', () => closeDialog(dialog, 'cancel'));
  $('clocks').addEventListener('change', sync);
  for (const input of dialog.querySelectorAll('input[name="tri-kind"], input[name="tri-fieldshape"]')) {
    input.addEventListener('change', sync);
  }
  for (const input of dialog.querySelectorAll('input[data-look]')) {
    input.addEventListener('change', () => input.checked && onLook(input.value));
  }
  $('form').addEventListener('submit', (event) => {
    event.preventDefault();
    closeDialog(dialog, 'start');
  });

  async function ask({ number = null, look = 'nebula' } = {}) {
    // an online game still on: the player's clock runs while they choose, so ask first
    if (await keepsOnlineGame()) return null;
    const saved = store.get('new', {});
    const field = counts[saved.field] ? saved.field : catalog.params?.field?.default;
    check('tri-kind', kinds.includes(saved.kind) ? saved.kind : catalog.kinds?.[catalog.params?.opponent?.default]);
    check('tri-level', levels.includes(saved.level) ? saved.level : levels[0]);
    check('tri-fieldshape', field);
    renderStars(field, saved.stars);
    renderClocks(saved.clock);
    again.checked = Boolean(saved.again);
    pub.checked = Boolean(saved.public);
    rated.checked = Boolean(saved.rated);
    // A game number fixes the board: the field and the stars are not asked for.
    $('size').hidden = Boolean(number);
    const note = $('number');
    note.hidden = !number;
    note.textContent = number ? t('games.triangles.new.number', { number }) : '';
    check('tri-look-menu', look);
    sync();
    if ((await openDialog(dialog)) !== 'start') return null;
    const kind = value('tri-kind');
    const level = value('tri-level') || levels[0];
    const choice = {
      kind,
      level,
      field: value('tri-fieldshape'),
      stars: Number(value('tri-stars')),
      again: again.checked,
      public: pub.checked,
      clock: value('tri-clock'),
      rated: rated.checked,
    };
    if (!number) store.set('new', choice);
    else store.set('new', { ...saved, kind, level, again: choice.again, public: choice.public, clock: choice.clock });
    const timed = clockFor.includes(kind) && choice.clock;
    return {
      kind,
      params: {
        opponent: kind === 'computer' ? level : kind,
        field: choice.field,
        stars: choice.stars,
        again: choice.again,
        ...(timed ? { clock: choice.clock } : {}),
        ...(timed && ratedClocks.includes(choice.clock) && choice.rated ? { rated: true } : {}),
      },
      public: kind === 'online' && choice.public,
    };
  }

  return { ask };
}
