/**
 * start — which Blocks game /play/blocks[/<ruleset>] opens: the ruleset from the address,
 * else the last one played, else the catalog's default (the address then says which); the
 * mode and rotation from the address or as last chosen, as far as the catalog offers them;
 * this choice's unfinished game is resumed unless the address asks for a new one (?new=1).
 *
 *   const start = blocksStart(page)
 *   start.fresh()          the boot's route for /play/blocks[/<ruleset>] (core/game-page.js)
 *   start.slot(view)       where the unfinished game of a view's choice is kept
 *   start.keep(view)       remembers the choice as the one to offer next time
 *   start.ruleset()        the address's ruleset if the catalog has it, else the default
 */

import { rulesetsOf } from './menu.js';
/** @import { BlocksView } from '../../types/wire' */

export function blocksStart(page) {
  const { catalog, config, query, store } = page;
  const rulesets = rulesetsOf(catalog);
  const slot = ({ ruleset, mode, rotation }) => `current.${ruleset}.${mode}.${rotation ? 1 : 0}`;
  const rotates = (ruleset) => Boolean(catalog?.rulesets?.[ruleset]?.rotation);

  /** The options asked by the address or remembered, as far as the catalog offers them. */
  function paramsFor(ruleset) {
    const modes = catalog?.rulesets?.[ruleset]?.modes ?? {};
    const asked = query.get('mode') || store.get(`mode.${ruleset}`);
    const mode = modes[asked] && !modes[asked].daily_once ? asked : catalog?.params?.mode?.default;
    let rotation = false;
    if (rotates(ruleset)) {
      const q = query.get('rotation');
      rotation = q !== null ? q === '1' || q === 'true' : Boolean(store.get('rotation'));
    }
    return { ruleset, mode, rotation };
  }

  async function fresh() {
    let ruleset = config.variant;
    if (!ruleset || !rulesets.includes(ruleset)) {
      const last = store.get('ruleset');
      ruleset = rulesets.includes(last) ? last : catalog?.params?.ruleset?.default;
      if (!ruleset) return; // the catalog offers no ruleset
      history.replaceState(null, '', `/play/blocks/${ruleset}${location.search}`);
      config.variant = ruleset;
    }
    const params = paramsFor(ruleset);
    if (!query.has('new') && (await page.resume(slot(params)))) return;
    await page.createOrThrow({ params });
  }

  /** @param {BlocksView} view */
  function keep(view) {
    store.set('ruleset', view.ruleset);
    store.set(`mode.${view.ruleset}`, view.mode);
    if (view.rotation !== undefined && rotates(view.ruleset)) store.set('rotation', view.rotation);
  }

  const ruleset = () => (rulesets.includes(config.variant) ? config.variant : catalog?.params?.ruleset?.default ?? 'classic10');

  return { fresh, slot, keep, ruleset };
}
