/**
 * menu — what every game's menu dialog shares (its content is the game's own): a modal
 * <dialog> from the template, closed by its [data-action="close"] button, Escape or a
 * click on the backdrop, that tells the game when it opens and closes (Pairs pauses its
 * clock while the menu is open).
 *
 *   class GameMenu
 *     constructor(dialog, {onToggle(open)}?)
 *     open                  whether it is showing
 *     show() → Promise      opens it; resolves to the dialog's returnValue once closed
 *     close(value?)         closes it with that returnValue ("cancel" from the close button)
 */

import { closeDialog, openDialog } from './ui.js';

export class GameMenu {
  /** @param {HTMLDialogElement} dialog @param {{onToggle?: (open: boolean) => void}} [hooks] */
  constructor(dialog, { onToggle } = {}) {
    this.dialog = dialog;
    this.onToggle = onToggle;
    dialog.querySelector('[data-action="close"]')?.addEventListener('click', () => this.close('cancel'));
  }

  get open() {
    return this.dialog.open;
  }

  show() {
    if (this.dialog.open) return Promise.resolve('');
    const closed = openDialog(this.dialog);
    this.onToggle?.(true);
    closed.then(() => this.onToggle?.(false));
    return closed;
  }

  close(value = 'close') {
    closeDialog(this.dialog, value);
  }
}
