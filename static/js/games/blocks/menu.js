/**
 * menu — choosing what to play (ruleset, mode, rotation), the menu dialog (phones: the
 * options, share, the daily board of honour, how to play) and the board of honour lists.
 *
 *   const menu = new Menu(dialog, sidePanel, handlers)
 *     handlers.onNew({ruleset, mode, rotation})   start a new game with these options
 *     handlers.onCopy(), handlers.onShare()
 *   menu.setOptions({catalog, ruleset, mode, rotation, daily})   (re)builds both option forms
 *   menu.show() / menu.close() / menu.open          (core/menu.js GameMenu)
 *   menu.setNumber(text)                                the menu's "Board #…" line
 *   renderHonour(root, honour | null, gameId)           fills every [data-honour-box] in root
 */

import { offline } from '../../core/connection.js';
import { formatNumber, has, t } from '../../core/i18n.js';
import { GameMenu } from '../../core/menu.js';
import { el, formatTime } from '../../core/ui.js';

/** The rulesets the server offers (/api/catalog), in its order. */
export function rulesetsOf(catalog) {
  return Object.keys(catalog?.rulesets ?? {});
}

/** The modes a ruleset offers to choose (not the once-a-day one), in the catalog's order. */
export function modesOf(catalog, ruleset) {
  const modes = catalog?.rulesets?.[ruleset]?.modes ?? {};
  return Object.keys(modes).filter((m) => !modes[m].daily_once);
}

/** The ruleset that has a daily board. */
export function dailyRuleset(catalog) {
  return rulesetsOf(catalog).find((r) => Object.values(catalog.rulesets[r].modes).some((m) => m.daily_once)) ?? null;
}

function label(key, fallback) {
  return has(key) ? t(key) : fallback;
}

export class Menu extends GameMenu {
  constructor(dialog, side, handlers) {
    super(dialog);
    this.side = side;
    this.handlers = handlers;
    this.choice = { ruleset: 'classic10', mode: 'classic', rotation: false };
    this.uid = 0;
    for (const root of [dialog, side]) {
      root.querySelector('[data-action="copy"]')?.addEventListener('click', () => handlers.onCopy());
      root.querySelector('[data-action="share"]')?.addEventListener('click', () => handlers.onShare());
    }
  }

  setNumber(text) {
    const line = this.dialog.querySelector('[data-number-line]');
    if (line) line.textContent = text;
  }

  setOptions({ catalog, ruleset, mode, rotation, daily }) {
    this.catalog = catalog;
    this.choice = { ruleset, mode: daily ? (catalog?.params?.mode?.default ?? mode) : mode, rotation: Boolean(rotation) };
    this.daily = Boolean(daily);
    this.current = { ruleset, mode, rotation: Boolean(rotation) };
    for (const root of [this.dialog, this.side]) {
      const slot = root.querySelector('[data-options]');
      if (slot) slot.replaceChildren(this.build());
    }
    for (const root of [this.dialog, this.side]) {
      const text = root.querySelector('[data-help-ruleset]');
      if (text) text.textContent = t(`games.blocks.help.${ruleset}`);
      const rotate = root.querySelector('[data-help-rotate]');
      if (rotate) rotate.hidden = !rotation;
    }
  }

  build() {
    const id = `blocks-opt-${(this.uid += 1)}`;
    const form = el('div', { class: 'blocks-options__form' });

    // rulesets: links, so that a ruleset's unfinished game resumes
    const rulesets = el('div', { class: 'blocks-choices', role: 'list' });
    for (const name of rulesetsOf(this.catalog)) {
      const current = name === this.current.ruleset && !this.daily;
      // a link may not be a list item itself: each sits in one (laid out as if it were not)
      rulesets.append(el('div', { class: 'blocks-choices__item', role: 'listitem' }, el(
        'a',
        {
          class: `blocks-choice${current ? ' is-current' : ''}`,
          href: `/play/blocks/${name}`,
          'aria-current': current ? 'page' : null,
        },
        el('span', { class: `blocks-choice__icon blocks-choice__icon--${name}`, 'aria-hidden': 'true' }),
        el('span', { class: 'blocks-choice__title' }, t(`games.blocks.${name}.title`)),
      )));
    }
    form.append(el('p', { class: 'field-label' }, t('games.blocks.ruleset')), rulesets);

    const ruleset = this.daily ? dailyRuleset(this.catalog) : this.current.ruleset;
    const modes = modesOf(this.catalog, ruleset);
    if (modes.length > 1) {
      const group = el('div', { class: 'blocks-modes', role: 'radiogroup', 'aria-labelledby': `${id}-mode` });
      const describe = el('p', { class: 'field-hint blocks-modes__desc', id: `${id}-desc` });
      const update = () => {
        describe.textContent = label(`games.blocks.mode.${this.choice.mode}.desc`, '');
      };
      for (const mode of modes) {
        const input = el('input', {
          type: 'radio',
          name: `${id}-mode`,
          value: mode,
          checked: mode === this.choice.mode,
          'aria-describedby': `${id}-desc`,
          on: {
            change: () => {
              if (input.checked) this.choice.mode = mode;
              update();
            },
          },
        });
        group.append(el('label', { class: 'blocks-mode' }, input, el('span', {}, t(`games.blocks.mode.${mode}`))));
      }
      update();
      form.append(el('p', { class: 'field-label', id: `${id}-mode` }, t('games.blocks.mode')), group, describe);
      form.append(el(
        'a',
        { class: `btn btn-outline btn-block blocks-daily-link${this.daily ? ' is-current' : ''}`, href: '/daily/blocks' },
        el('span', {}, t('games.blocks.daily.play')),
      ));
    }

    if (this.catalog?.rulesets?.[ruleset]?.rotation) {
      const input = el('input', {
        type: 'checkbox',
        role: 'switch',
        checked: this.choice.rotation,
        on: { change: () => { this.choice.rotation = input.checked; } },
      });
      form.append(el(
        'label',
        { class: 'switch blocks-rotation' },
        el('span', {}, el('span', { class: 'blocks-rotation__title' }, t('games.blocks.rotation')),
          el('span', { class: 'field-hint blocks-rotation__desc' }, t('games.blocks.rotation.desc'))),
        input,
      ));
    }

    form.append(el(
      'button',
      {
        type: 'button',
        class: 'btn btn-primary btn-block blocks-new-game',
        dataset: { needsServer: '' }, // a new game is made by the server: off while offline
        disabled: offline(),
        title: offline() ? t('common.offline.new_game') : null,
        on: {
          click: () => {
            this.close();
            this.handlers.onNew({ ...this.choice, ruleset });
          },
        },
      },
      t('games.blocks.new_game'),
    ), el('p', { class: 'field-hint blocks-new-offline', dataset: { offlineNote: '' }, hidden: !offline() }, t('common.offline.new_game')));
    return form;
  }
}

export function renderHonour(root, honour, gameId) {
  for (const box of root.querySelectorAll('[data-honour-box]')) {
    if (!honour) {
      box.hidden = true;
      continue;
    }
    box.hidden = false;
    const list = box.querySelector('[data-honour]');
    const empty = box.querySelector('[data-honour-empty]');
    empty.hidden = honour.length > 0;
    list.replaceChildren(...honour.slice(0, 10).map((row) => el(
      'li',
      { class: `blocks-honour__row${row.game_id === gameId ? ' is-mine' : ''}` },
      el('span', { class: 'blocks-honour__rank' }, String(row.rank)),
      el('span', { class: 'blocks-honour__name' }, row.name || t('games.blocks.daily.anonymous'),
        row.game_id === gameId ? el('span', { class: 'badge' }, t('games.blocks.daily.you')) : null),
      el('span', { class: 'blocks-honour__score' }, formatNumber(row.score)),
      el('span', { class: 'blocks-honour__time muted' }, formatTime(row.time_ms || 0)),
    )));
  }
}
