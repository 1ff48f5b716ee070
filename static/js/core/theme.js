/**
 * theme — light / dark / system, as a class on <html> (theme-light, theme-dark; none =
 * follow prefers-color-scheme). The choice is kept in localStorage and mirrored in a
 * `theme` cookie so the server renders the right class on the next page (no flash).
 * A page may also carry theme-nebula (Triangles), which overrides the palette.
 *
 *   initTheme()          → applies the stored choice, wires [data-theme-toggle] buttons
 *                          (each click cycles system → light → dark), watches the system setting
 *   currentTheme()       → "system" | "light" | "dark" (the player's choice)
 *   effectiveTheme()     → "light" | "dark" (what is shown now)
 *   setTheme(name)       → stores and applies "system" | "light" | "dark"
 *   cssVar(name, el?)    → a custom property's value, e.g. cssVar('--p1') → "#ff5a36"
 *   cssVars(names, el?)  → {name: value} of several, read in one style pass
 *
 * Whenever the colours may have changed, window receives a `themechange` event
 * (detail: {theme, effective}); canvases redraw on it (canvas.js does so by itself).
 */

import { t } from './i18n.js';

const THEMES = ['system', 'light', 'dark'];
const KEY = 'theme';
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

export function currentTheme() {
  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    /* storage may be blocked */
  }
  if (!stored) stored = document.cookie.match(/(?:^|;\s*)theme=(\w+)/)?.[1] ?? null;
  return THEMES.includes(stored) ? stored : 'system';
}

export function effectiveTheme() {
  const root = document.documentElement;
  if (root.classList.contains('theme-nebula') || root.classList.contains('theme-dark')) return 'dark';
  if (root.classList.contains('theme-light')) return 'light';
  return darkQuery.matches ? 'dark' : 'light';
}

/** Custom properties' values, {name: value}. A light-dark() colour comes back resolved for
 *  the element's colour scheme: custom properties are not computed, so probe elements
 *  resolve them, all in one style pass (reading a computed style after each change of the
 *  page would force a pass per colour). */
export function cssVars(names, el = document.documentElement) {
  const style = getComputedStyle(el);
  const values = {};
  const probes = new Map();
  for (const name of names) {
    values[name] = style.getPropertyValue(name).trim();
    if (!values[name].includes('light-dark(')) continue;
    const probe = Object.assign(document.createElement('span'), { hidden: true });
    probe.style.color = `var(${name})`;
    probes.set(name, probe);
  }
  if (!probes.size) return values;
  (el === document.documentElement ? document.body : el).append(...probes.values());
  for (const [name, probe] of probes) values[name] = getComputedStyle(probe).color;
  for (const probe of probes.values()) probe.remove();
  return values;
}

/** One custom property's value (see cssVars). */
export function cssVar(name, el = document.documentElement) {
  return cssVars([name], el)[name];
}

function apply(theme) {
  const root = document.documentElement;
  root.classList.toggle('theme-light', theme === 'light');
  root.classList.toggle('theme-dark', theme === 'dark');
  // With the system's theme the metas keep their media queries; otherwise they take the
  // page's background (read only then: reading a computed style forces a style pass).
  if (theme !== 'system' || root.classList.contains('theme-nebula')) paintMetas();
  for (const button of document.querySelectorAll('[data-theme-toggle]')) {
    const label = t('site.theme.toggle', { name: t(`site.theme.${theme}`) });
    button.setAttribute('aria-label', label);
    button.title = label;
  }
  window.dispatchEvent(new CustomEvent('themechange', { detail: { theme, effective: effectiveTheme() } }));
}

// The metas' colour is read once the next frame has computed the page's style: read in
// the page's first script, it forced the whole page's first style pass into that task (on
// Triangles a long task of 250-400 ms with the CPU 4× slower, see bench/long_tasks.py).
let metasFrame = 0;

function paintMetas() {
  if (metasFrame) return;
  metasFrame = requestAnimationFrame(() => setTimeout(() => {
    metasFrame = 0;
    const bg = cssVar('--bg');
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
      meta.removeAttribute('media');
      meta.content = bg;
    }
  }));
}

export function setTheme(name) {
  const theme = THEMES.includes(name) ? name : 'system';
  try {
    if (theme === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    /* the cookie still carries it */
  }
  document.cookie = theme === 'system'
    ? 'theme=; path=/; max-age=0; samesite=lax'
    : `theme=${theme}; path=/; max-age=31536000; samesite=lax`;
  apply(theme);
}

let started = false;

export function initTheme() {
  if (started) return;
  started = true;
  const theme = currentTheme();
  // Keep the cookie in step with localStorage (the server reads the cookie).
  if (theme !== 'system' && !document.documentElement.classList.contains(`theme-${theme}`)) {
    setTheme(theme);
  } else {
    apply(theme);
  }
  darkQuery.addEventListener('change', () => {
    if (currentTheme() === 'system') apply('system');
  });
  for (const button of document.querySelectorAll('[data-theme-toggle]')) {
    button.addEventListener('click', () => {
      const next = THEMES[(THEMES.indexOf(currentTheme()) + 1) % THEMES.length];
      setTheme(next);
      button.dispatchEvent(new CustomEvent('themetoggled', { bubbles: true, detail: { theme: next } }));
    });
  }
}
