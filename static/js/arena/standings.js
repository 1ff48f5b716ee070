/**
 * arena/standings — an arena's ranking as a table (#arena-rows) and, once it is over, its
 * podium (#arena-podium): rank, name (or "Anonymous"), the fire and paused marks, each
 * game's points as a chip coloured by its result (fire and berserk marked), the score. The
 * player's own row is highlighted. Names are text nodes, never HTML.
 *
 *   renderStandings(standings, over)   renderPodium(standings)  (an empty list hides the podium)
 */

import { formatNumber, ordinal, plural, t } from '../core/i18n.js';
import { el, svg } from '../core/ui.js';
/** @import { ArenaGame, Standing } from '../types/wire' */

const nameOf = (row) => row.name || t('arenas.anonymous');

const FLAME = 'M12 2.5c.9 3.2 4.9 5.3 4.9 10.2a4.9 4.9 0 0 1-9.8 0c0-2.3 1-3.8 2.3-4.9.1 1.7.9 2.8 2 3.3-.4-3 .1-5.8.6-8.6z';

/** The fire mark: a flame drawn in SVG (no emoji font needed), its words said. */
function fire() {
  const label = t('arenas.fire');
  return el('span', { class: 'standings__fire', role: 'img', 'aria-label': label, title: label },
    svg('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' }, svg('path', { d: FLAME })));
}

/** @param {ArenaGame} game */
function gameChip(game) {
  const said = [t(`arenas.game.${game.result}`, { points: plural('arenas.game.points', game.points) })];
  if (game.berserk) said.push(t('arenas.game.berserk'));
  if (game.fire) said.push(t('arenas.game.fire'));
  const classes = ['arena-game', `arena-game--${game.result}`];
  if (game.fire) classes.push('is-fire');
  if (game.berserk) classes.push('is-berserk');
  return el(
    'li',
    { class: classes.join(' '), title: said.join(', ') },
    el('span', { class: 'visually-hidden' }, said.join(', ')),
    el('span', { 'aria-hidden': 'true' }, String(game.points)),
  );
}

/** @param {Standing} row @param {boolean} over */
function playerCell(row, over) {
  const line = el('span', { class: 'standings__line' }, el('span', { class: 'standings__name' }, nameOf(row)));
  if (row.you) line.append(el('span', { class: 'badge standings__you' }, t('arenas.you')));
  if (row.fire && !over) line.append(fire());
  if (over) {
    /* an arena over: nobody plays or pauses any more */
  } else if (row.paused) line.append(el('span', { class: 'standings__state' }, t('arenas.paused.mark')));
  else if (row.playing) line.append(el('span', { class: 'standings__state standings__state--playing' }, t('arenas.playing.mark')));
  if (row.performance != null) line.append(el('span', { class: 'standings__perf muted' }, t('arenas.performance', { n: formatNumber(row.performance) })));
  const cell = el('td', { class: 'standings__player' }, line);
  if (row.games.length) cell.append(el('ol', { class: 'arena-games', 'aria-label': t('arenas.games') }, row.games.map(gameChip)));
  return cell;
}

/** @param {Standing[]} standings @param {boolean} over */
export function renderStandings(standings, over) {
  const rows = standings.map((row) =>
    el(
      'tr',
      { class: `standings__row${row.you ? ' is-you' : ''}`, dataset: { rank: String(row.rank) }, 'aria-current': row.you ? 'true' : null },
      el('td', { class: 'standings__rank' }, String(row.rank)),
      playerCell(row, over),
      el('td', { class: 'standings__score' }, formatNumber(row.score)),
    ),
  );
  document.getElementById('arena-rows').replaceChildren(...rows);
  document.getElementById('arena-table').hidden = !standings.length;
  document.getElementById('arena-empty').hidden = Boolean(standings.length);
}

/** @param {Standing[]} standings */
export function renderPodium(standings) {
  const top = standings.filter((row) => row.rank <= 3).slice(0, 3);
  const box = document.getElementById('arena-podium');
  box.hidden = !top.length;
  document.getElementById('arena-podium-list').replaceChildren(
    ...top.map((row) =>
      el(
        'li',
        { class: `podium__step podium__step--${row.rank}${row.you ? ' is-you' : ''}` },
        el('span', { class: 'podium__place' }, ordinal('arenas.place', row.rank)),
        el('span', { class: 'podium__name' }, nameOf(row)),
        el('span', { class: 'podium__score' }, plural('arenas.points', row.score)),
      ),
    ),
  );
}
