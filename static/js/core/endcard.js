/**
 * endcard — the one end card behaviour every game shares: a modal <dialog> whose actions row
 * comes from templates/dialogs.html end_actions(): new game, copy link, share, watch (a link
 * to the game's replay page, /replay/{id}, for the game the session holds: <body
 * data-game-id>), see the board, after the game's own actions (continue, replay in calm
 * mode, play again, rematch…).
 *
 *   const card = new EndCard(dialog, {onNew, link() → url, title() → text, onAction(action),
 *                                      onToggle(open)})
 *   card.show({primary?, hide?: [actions]}) → Promise (resolves when closed); `primary` names
 *                       the game's action that takes the primary look (else "new")
 *   card.close(), card.open
 * Labels come from the template (catalog); the game fills the card's body itself. Offline,
 * "new" (and any action marked data-needs-server) is off and a note says why (core/connection.js).
 */

import { syncServerActions } from './connection.js';
import { closeDialog, copyLink, openDialog, shareLink } from './ui.js';

export class EndCard {
  constructor(dialog, handlers) {
    this.dialog = dialog;
    this.handlers = handlers;
    this.actions = dialog.querySelector('[data-end-actions]');
    dialog.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-action]');
      if (!button || !dialog.contains(button)) return;
      const action = button.dataset.action;
      if (action === 'board' || action === 'close') {
        this.close();
      } else if (action === 'copy') {
        const url = handlers.link?.();
        if (url) copyLink(url);
      } else if (action === 'share') {
        const url = handlers.link?.();
        if (url) shareLink(url, handlers.title?.() ?? document.title);
      } else if (action === 'new') {
        this.close();
        handlers.onNew?.();
      } else {
        handlers.onAction?.(action, button);
      }
    });
    dialog.addEventListener('close', () => handlers.onToggle?.(false));
  }

  get open() {
    return this.dialog.open;
  }

  close() {
    closeDialog(this.dialog, 'close');
  }

  show({ primary = 'new', hide = [] } = {}) {
    const watch = this.actions.querySelector('a[data-action="watch"]');
    const gameId = document.body.dataset.gameId;
    if (watch) {
      watch.hidden = !gameId || hide.includes('watch');
      if (gameId) watch.href = `/replay/${encodeURIComponent(gameId)}`;
    }
    for (const button of this.actions.querySelectorAll('button[data-action]')) {
      const action = button.dataset.action;
      if (action === 'share') button.hidden = typeof navigator.share !== 'function' || hide.includes('share');
      else if (['new', 'copy', 'board'].includes(action)) button.hidden = hide.includes(action);
      if (!button.classList.contains('btn-ghost')) {
        button.classList.toggle('btn-primary', action === primary);
        button.classList.toggle('btn-outline', action !== primary);
      }
    }
    syncServerActions(this.dialog); // offline: "new" off, and the note says why
    if (this.dialog.open) return Promise.resolve('');
    const closed = openDialog(this.dialog);
    this.handlers.onToggle?.(true);
    return closed;
  }
}
