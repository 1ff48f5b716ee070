/**
 * shell — loaded on every page: theme, language switch, nothing game-specific.
 * Game pages add their own module in {% block scripts %}.
 */

import { initLanguageSwitch, t } from './core/i18n.js';
import { initSoundToggle } from './core/sound.js';
import { currentTheme, initTheme } from './core/theme.js';
import { toast } from './core/ui.js';
import { registerWorker } from './core/worker.js';

initTheme();
initLanguageSwitch();
initSoundToggle();
// After the page has loaded: installing the worker fetches the whole shell, which must not
// compete with the page's own first load on a slow network.
if (document.readyState === 'complete') registerWorker();
else window.addEventListener('load', () => registerWorker(), { once: true });

document.addEventListener('themetoggled', () => {
  toast(t('site.theme.changed', { name: t(`site.theme.${currentTheme()}`) }), { ms: 1600 });
});
