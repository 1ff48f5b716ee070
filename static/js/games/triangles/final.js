/**
 * final — the end-of-game card (a modal <dialog> from the template) with the shared end
 * actions (core/endcard.js: new game, copy link, share, see the board) after its own.
 *
 *   const card = new FinalCard(dialog, {onAction(action), onNew(), link() → url, title()})
 *   card.show(model)       opens it; model:
 *       {title, sub, tone: "win"|"loss"|"draw"|"neutral",
 *        players: [{name, score, seat, winner}], stats: text|null,
 *        rematch: null | {text, actions: [{label, action, primary?}]},
 *        actions: [{label, action, primary?}] (the game's own), primary: action | null}
 *   card.update(model)     re-renders an open card (rematch offers arrive while it shows)
 *   card.close(), card.open
 * Buttons call onAction(action). Names are text nodes (el()), never HTML.
 */

import { EndCard } from '../../core/endcard.js';
import { el, svg } from '../../core/ui.js';

let clipSeq = 0;

function markSvg(seat) {
  const d = 'M10 2.8 18 16.6H2z';
  if (seat === 0) {
    return svg('svg', { class: 'tri-mark tri-mark--p1', viewBox: '0 0 20 20', 'aria-hidden': 'true', focusable: 'false' },
      svg('path', { class: 'tri-mark__fill', d }));
  }
  const id = `tri-mark-clip-${++clipSeq}`;
  return svg('svg', { class: 'tri-mark tri-mark--p2', viewBox: '0 0 20 20', 'aria-hidden': 'true', focusable: 'false' },
    svg('defs', {}, svg('clipPath', { id }, svg('path', { d }))),
    svg('path', { class: 'tri-mark__fill', d }),
    svg('path', { class: 'tri-mark__hatch', 'clip-path': `url(#${id})`, d: 'M-2 14 10 2M1 19 15 5M6 21 20 7M11 23 23 11' }));
}

export class FinalCard {
  constructor(dialog, handlers) {
    this.dialog = dialog;
    this.model = null;
    this.card = new EndCard(dialog, handlers);
  }

  get open() {
    return this.card.open;
  }

  render(model) {
    this.model = model;
    const d = this.dialog;
    d.dataset.tone = model.tone || 'neutral';
    d.querySelector('#tri-final-title').textContent = model.title;
    d.querySelector('#tri-final-sub').textContent = model.sub || '';
    d.querySelector('#tri-final-score').replaceChildren(
      ...model.players.map((p) => el('div', { class: `tri-final__player tri-final__player--p${p.seat + 1}${p.winner ? ' is-winner' : ''}` },
        markSvg(p.seat),
        el('span', { class: 'tri-final__name' }, p.name),
        el('span', { class: 'tri-final__points' }, String(p.score)))),
    );
    const stats = d.querySelector('#tri-final-stats');
    stats.hidden = !model.stats;
    stats.textContent = model.stats || '';
    const rematch = d.querySelector('#tri-rematch');
    rematch.hidden = !model.rematch;
    if (model.rematch) {
      d.querySelector('#tri-rematch-text').textContent = model.rematch.text || '';
      d.querySelector('#tri-rematch-actions').replaceChildren(
        ...model.rematch.actions.map((a) => el('button', {
          type: 'button',
          class: `btn ${a.primary ? 'btn-primary' : 'btn-outline'}`,
          dataset: { action: a.action },
        }, a.label)),
      );
    }
    d.querySelector('#tri-final-actions').replaceChildren(
      ...model.actions.map((a) => el('button', {
        type: 'button',
        class: `btn ${a.primary ? 'btn-primary' : 'btn-outline'}`,
        dataset: { action: a.action },
        autofocus: Boolean(a.primary),
      }, a.label)),
    );
  }

  show(model) {
    this.render(model);
    return this.card.show({ primary: model.primary });
  }

  update(model) {
    this.render(model);
  }

  close() {
    this.card.close();
  }
}
