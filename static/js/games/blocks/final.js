/**
 * final — the final card: score, record, lines, best combo, the pieces that were stuck and
 * the server's tip, Continue where the view allows it, play again, copy or share the link.
 *
 *   const card = new FinalCard(dialog, {onContinue, onAgain, onCopy, onShare, onClose})
 *   card.show({view, ruleset, mode, record, isNewRecord, countsForRecord, daily, playedBefore})
 *   card.close(), card.isOpen
 *
 * The tip is the view's code with its numbers (final.tip); the words are the catalog's.
 */

import { formatNumber, has, t } from '../../core/i18n.js';
import { closeDialog, openDialog } from '../../core/ui.js';
import { pieceSvg } from './palette.js';

const TITLES = { stuck: 'games.blocks.final.title.stuck', finished: 'games.blocks.final.title.finished', time_up: 'games.blocks.final.title.time_up' };

function tipText(tip) {
  if (!tip) return '';
  const key = `games.blocks.final.tip.${tip.code}`;
  return has(key) ? t(key, tip) : '';
}

export class FinalCard {
  constructor(dialog, handlers) {
    this.dialog = dialog;
    this.handlers = handlers;
    const on = (action, fn) => dialog.querySelector(`[data-action="${action}"]`).addEventListener('click', fn);
    on('continue', () => handlers.onContinue());
    on('again', () => handlers.onAgain());
    on('copy', () => handlers.onCopy());
    on('share', () => handlers.onShare());
    on('close', () => this.close());
    dialog.addEventListener('close', () => handlers.onClose?.());
  }

  get isOpen() {
    return this.dialog.open;
  }

  close() {
    closeDialog(this.dialog);
  }

  show({ view, mode, record, isNewRecord, countsForRecord, daily, playedBefore }) {
    const final = view.final || {};
    const $ = (sel) => this.dialog.querySelector(sel);
    const zen = mode === 'zen';
    $('#blocks-final-title').textContent = t(TITLES[final.reason] || 'common.game_over');
    $('[data-score]').textContent = formatNumber(zen ? final.lines ?? 0 : final.score ?? 0);
    $('[data-score]').classList.toggle('is-lines', zen);
    $('[data-sub]').textContent = zen ? t('games.blocks.lines') : t('common.score');
    $('[data-new-record]').hidden = !isNewRecord;

    const recordStat = $('[data-stat="record"]');
    recordStat.hidden = !countsForRecord;
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
    note.textContent = daily ? t(playedBefore ? 'games.blocks.daily.played' : 'games.blocks.daily.tomorrow') : '';

    $('[data-action="continue"]').hidden = !view.can_continue;
    $('[data-continue-hint]').hidden = !view.can_continue;
    const again = $('[data-action="again"]');
    again.hidden = Boolean(daily);
    again.classList.toggle('btn-primary', !view.can_continue);
    again.classList.toggle('btn-outline', Boolean(view.can_continue));
    openDialog(this.dialog);
  }
}
