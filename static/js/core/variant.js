/**
 * variant — words for a game's variant, from the catalog and the i18n catalog only (no
 * game is named here: a new game gets words by adding its keys).
 *
 *   variantParts(params, entry) → the parts of the server's variant name (app/history.py
 *                                 variant_of): each param but `opponent`, in the catalog's
 *                                 order; a true boolean gives its name, a false one nothing
 *   variantWords(game, variant, entry) → "Classic 10×10 · Classic" for "classic10/classic"
 *   levelWords(game, level) → "Medium", "Online" … for a statistics level
 */

import { has, t } from './i18n.js';

export function variantParts(params, entry) {
  const declared = Object.keys(entry?.params || {});
  const keys = [...declared, ...Object.keys(params || {}).filter((k) => !declared.includes(k)).sort()];
  const parts = [];
  for (const key of keys) {
    if (key === 'opponent' || !(key in (params || {}))) continue;
    const value = params[key];
    if (typeof value === 'boolean') {
      if (value) parts.push(key);
    } else {
      parts.push(String(value));
    }
  }
  return parts;
}

// A part's words: games.<game>.<part>.title, a true boolean's games.<game>.<param>, a
// choice's games.<game>.<param>.<choice> or .choice.<choice>, a number's
// games.<game>.<param> with {n}. A part with no words at all is left out: a raw value
// ("none", "5+3") never reaches a player.
function partWords(game, part, entry) {
  if (has(`games.${game}.${part}.title`)) return t(`games.${game}.${part}.title`);
  for (const [param, spec] of Object.entries(entry?.params || {})) {
    if (param === part && has(`games.${game}.${param}`)) return t(`games.${game}.${param}`);
    if (!(spec.choices || []).map(String).includes(part)) continue;
    for (const key of [`games.${game}.${param}.${part}`, `games.${game}.${param}.choice.${part}`]) {
      if (has(key)) return t(key);
    }
    if (/^\d+$/.test(part) && has(`games.${game}.${param}`)) return t(`games.${game}.${param}`, { n: part });
  }
  return null;
}

export function variantWords(game, variant, entry) {
  const parts = Array.isArray(variant) ? variant : String(variant || '').split('/').filter(Boolean);
  return parts.map((part) => partWords(game, part, entry)).filter(Boolean).join(' · ');
}

export function levelWords(game, level) {
  if (level === 'online') return t('me.stats.online');
  return has(`games.${game}.opponent.${level}`) ? t(`games.${game}.opponent.${level}`) : level;
}
