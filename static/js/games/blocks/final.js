/**
 * final — the final card: score, record, lines, best combo, the pieces that were stuck and
 * the server's tip, Continue where the view allows it, and the shared end actions
 * (core/endcard.js: new game, copy link, share, see the board).
 *
 *   const card = new FinalCard(dialog, {onContinue, onNew, link, onToggle})
 *   card.show({view, record, isNewRecord, daily, playedBefore, tooFast, again})
 *   card.close(), card.open
 *
 * The tip is the view's code with its numbers (final.tip); the words are the catalog's.
 */

import { formatNumber, has, t } from '../../core/i18n.js';
import { EndCard } from '../../core/endcard.js';
import { pieceSvg } from './palette.js';
/** @import { BlocksView } from '../../types/wire' */

const TITLES = { stuck: 'games.blocks.final.title.stuck', finished: 'games.blocks.final.title.finished', time_up: 'games.blocks.final.title.time_up' };

function tipText(tip) {
  if (!tip) return '';
  const key = `games.blocks.final.tip.${tip.code}`;
  return has(key) ? t(key, tip) : '';
}

export class FinalCard {
  constructor(dialog, handlers) {
    this.dialog = dialog;
    this.card = new EndCard(dialog, {
      ...handlers,
      onAction: (action) => {
        if (action === 'continue') handlers.onContinue();
      },
    });
  }

  get open() {
    return this.card.open;
  }

  close() {
    this.card.close();
  }

  /** @param {{view: BlocksView} & Record<string, any>} shown */
  show({ view, record, isNewRecord, daily, playedBefore, tooFast, again }) {
    const final = view.final || /** @type {Partial<NonNullable<BlocksView['final']>>} */ ({});
    const $ = (sel) => this.dialog.querySelector(sel);
    const zen = view.counts_lines;
    $('#blocks-final-title').textContent = t(TITLES[final.reason] || 'common.game_over');
    $('[data-score]').textContent = formatNumber(zen ? final.lines ?? 0 : final.score ?? 0);
    $('[data-score]').classList.toggle('is-lines', zen);
    $('[data-sub]').textContent = zen ? t('games.blocks.lines') : t('common.score');
    $('[data-new-record]').hidden = !isNewRecord;

    const recordStat = $('[data-stat="record"]');
    recordStat.hidden = !view.counts_for_record;
    recordStat.classList.toggle('stat--highlight', Boolean(isNewRecord));
    recordStat.querySelector('[data-value]').textContent = record === null || record === undefined ? '–' : formatNumber(record);
    $('[data-stat-lines]').textContent = formatNumber(final.lines ?? 0);
    const comboStat = $('[data-stat="combo"]');
    comboStat.hidden = !(final.best_combo > 0);
    comboStat.querySelector('[data-value]').textContent = `×${formatNumber(final.best_combo ?? 0)}`;
    $('[data-stat-pieces]').textContent = formatNumber(final.placements ?? 0);

    const stuck = final.stuck || [];
    $('[data-stuck-box]').hidden = stuck.length === 0;
    $('[data-stuck]').replaceChildren(...stuck.map((piece) => pieceSvg(piece.cells, piece.kind, 16)));
    const tip = tipText(final.tip);
    $('[data-tip]').hidden = !tip || final.reason === 'finished' && stuck.length === 0;
    $('[data-tip-text]').textContent = tip;

    const note = $('[data-note]');
    note.hidden = !daily;
    const notes = daily ? [t(playedBefore ? 'common.daily.played' : 'common.daily.tomorrow')] : [];
    if (daily && tooFast) notes.push(t('common.daily.too_fast'));
    note.textContent = notes.join(' ');

    $('[data-action="continue"]').hidden = !view.can_continue;
    $('[data-continue-hint]').hidden = !view.can_continue;
    this.card.show({ primary: view.can_continue ? 'continue' : 'new', hide: again ? [] : ['new'] });
  }
}
