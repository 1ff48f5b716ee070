/**
 * errors — the words for a refusal, from the catalog by its code, never the server's message.
 *
 *   errorText(game, error) → games.<game>.error.<code> (a game's own wording) or else
 *                            error.<code> (one message per code for every game) or else the
 *                            network / generic message; the refusal's details fill its
 *                            named variables (rated_needs_games: needed, finished)
 */

import { has, t } from './i18n.js';

export function errorText(game, error) {
  const code = error?.code;
  if (code) {
    const details = error.details ?? {};
    if (game && has(`games.${game}.error.${code}`)) return t(`games.${game}.error.${code}`, details);
    if (has(`error.${code}`)) return t(`error.${code}`, details);
  }
  if (error?.status === 0) return t('error.network');
  return t('error.generic');
}
