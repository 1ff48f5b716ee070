/**
 * menu — the Pairs menu (a core/menu.js GameMenu): board size, mode, pair highlighting,
 * this board's link, a typed game number, a new game.
 *
 *   const menu = new Menu(dialog, {onHighlight, onCopy, onNumber, onNew, onToggle})
 *   menu.show({size, mode, highlight, number, paused})   opens it (onToggle(true), later onToggle(false))
 *   menu.close()
 *   menu.open                                             whether it is showing
 *   menu.setSizes(sizes)                                  the catalog's sizes: "6 × 6 · 18 pairs"
 *   menu.numberError(text | '')                           the typed number's error line
 *
 * Picking a size or a mode only marks it: "New game" calls onNew({size, mode}) once, with
 * both (one restart, the menu closed then); onNumber(number) returns a promise that
 * resolves to an error text or ''.
 */

import { plural, t } from '../../core/i18n.js';
import { GameMenu } from '../../core/menu.js';

export class Menu extends GameMenu {
  constructor(dialog, handlers) {
    super(dialog, { onToggle: handlers.onToggle });
    this.handlers = handlers;
    this.current = { size: null, mode: null };
    this.input = dialog.querySelector('#pairs-number-input');
    this.error = dialog.querySelector('#pairs-number-error');
    this.highlight = dialog.querySelector('#pairs-highlight');

    // size and mode are only chosen here; "New game" starts one game with both
    dialog.querySelector('[data-action="new"]').addEventListener('click', () => {
      const choice = this.choice();
      this.close();
      handlers.onNew(choice);
    });
    dialog.querySelector('[data-action="copy"]').addEventListener('click', () => handlers.onCopy());
    this.highlight.addEventListener('change', () => handlers.onHighlight(this.highlight.checked));
    this.input.addEventListener('input', () => this.numberError(''));
    dialog.querySelector('#pairs-number-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const raw = this.input.value.trim().replace(/^#/, '').toLowerCase();
      if (!raw) {
        this.numberError(t('games.pairs.menu.number.empty'));
        this.input.focus();
        return;
      }
      const button = event.target.querySelector('button[type="submit"]');
      button.disabled = true;
      const problem = await handlers.onNumber(raw);
      button.disabled = false;
      if (problem) {
        this.numberError(problem);
        this.input.focus();
      } else {
        this.input.value = '';
        this.close();
      }
    });
  }

  /** @override shows the choices of the game on screen, then opens (GameMenu.show) */
  show({ size, mode, highlight, number, paused }) {
    this.current = { size, mode };
    for (const input of this.dialog.querySelectorAll('input[name="pairs-size"]')) input.checked = input.value === size;
    for (const input of this.dialog.querySelectorAll('input[name="pairs-mode"]')) input.checked = input.value === mode;
    this.highlight.checked = Boolean(highlight);
    this.dialog.querySelector('#pairs-menu-number').textContent = number ? `#${number}` : '–';
    this.dialog.querySelector('[data-action="copy"]').disabled = !number;
    this.dialog.querySelector('#pairs-menu-paused').hidden = !paused;
    this.numberError('');
    return super.show();
  }

  /** The size and mode marked in the menu. */
  choice() {
    const picked = (name) => this.dialog.querySelector(`input[name="${name}"]:checked`)?.value;
    return { size: picked('pairs-size') ?? this.current.size, mode: picked('pairs-mode') ?? this.current.mode };
  }

  setPaused(paused) {
    this.dialog.querySelector('#pairs-menu-paused').hidden = !paused;
  }

  setSizes(sizes) {
    for (const node of this.dialog.querySelectorAll('[data-size-info]')) {
      const spec = sizes?.[node.dataset.sizeInfo];
      if (!spec) continue;
      node.textContent = plural('games.pairs.size.info', spec.pairs, { rows: spec.rows, cols: spec.cols });
    }
  }

  numberError(text) {
    this.error.textContent = text || '';
    this.error.hidden = !text;
    this.input.setAttribute('aria-invalid', String(Boolean(text)));
    if (text) this.error.scrollIntoView({ block: 'nearest' }); // below the fold of a phone's menu
  }
}
