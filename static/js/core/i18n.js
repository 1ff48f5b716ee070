/**
 * i18n — the words of the page: static/i18n/<lang>.json, the file the page preloads as
 * <link data-i18n-catalog> (an immutable URL, so a warm visit reads it from the cache).
 * The module awaits it before it is done, so every module that imports t() runs with the
 * words in place.
 *
 *   t(key, vars?)            → string; "{name}" slots filled from vars ("{name|de}": French "de",
 *                              elided before a vowel); the key itself if missing
 *   has(key)                 → boolean, true when the catalog has the key
 *   plural(key, n, vars?)    → t(`${key}.${category}`, {n, ...vars}) with the CLDR category of n
 *                              (one/few/many/other via Intl.PluralRules), falling back to `${key}.other`
 *   ordinal(key, n, vars?)   → t(`${key}.${category}`, {n, ...vars}) with n's ordinal category
 *                              (Intl.PluralRules type "ordinal": fr 1 → one "1er", en 2 → two
 *                              "2nd"), falling back to `${key}.other`
 *   lang()                   → "en" | "ru" | "fr" (the <html lang>)
 *   formatNumber(n)          → n with the language's digit grouping
 *   setLanguage(code)        → stores the `lang` cookie for a year and reloads the page
 *   initLanguageSwitch(root?)→ wires <select data-lang-select> and <button data-lang="xx"> inside root
 *
 * Keys are namespaced: site.*, lobby.*, common.*, games.<game>.*.
 */

async function load() {
  const link = document.querySelector('link[data-i18n-catalog]');
  if (!link) return {};
  try {
    const answer = await fetch(link.href, { credentials: 'same-origin' });
    return answer.ok ? await answer.json() : {};
  } catch {
    return {}; // no words: t() shows keys rather than the page failing to start
  }
}

const catalog = await load();

function messages() {
  return catalog;
}

export function lang() {
  return document.documentElement.lang || 'en';
}

export function has(key) {
  return Object.hasOwn(messages(), key);
}

// Words that change with the value they stand before, written "{name|de}" in a catalog:
// French "de" elides to "d’" before a vowel ("au tour d’Alexandra", "au tour de Bob").
const FORMS = {
  de: (text) => (/^[aeiouyàâäéèêëîïôöùûüÿæœ]/i.test(text) ? `d’${text}` : `de ${text}`),
};

export function t(key, vars) {
  const text = has(key) ? messages()[key] : key;
  if (!vars) return text;
  return text.replace(/\{(\w+)(?:\|(\w+))?\}/g, (whole, name, form) => {
    if (!(name in vars)) return whole;
    const value = String(vars[name]);
    return form && FORMS[form] ? FORMS[form](value) : value;
  });
}

let pluralRules = null;
let numbers = null;

export function plural(key, n, vars = {}) {
  pluralRules ??= new Intl.PluralRules(lang());
  const exact = `${key}.${pluralRules.select(n)}`;
  return t(has(exact) ? exact : `${key}.other`, { n: formatNumber(n), ...vars });
}

let ordinalRules = null;

export function ordinal(key, n, vars = {}) {
  ordinalRules ??= new Intl.PluralRules(lang(), { type: 'ordinal' });
  const exact = `${key}.${ordinalRules.select(n)}`;
  return t(has(exact) ? exact : `${key}.other`, { n: formatNumber(n), ...vars });
}

export function formatNumber(n) {
  // Whole numbers under 1000 read the same in en, ru and fr: no formatter for them, since
  // the first Intl.NumberFormat loads the locale's data (~70 ms on a slow phone, at boot).
  if (Number.isInteger(n) && Math.abs(n) < 1000) return String(n);
  numbers ??= new Intl.NumberFormat(lang()); // made once, used every frame by the HUDs
  return numbers.format(n);
}

export function setLanguage(code) {
  document.cookie = `lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

export function initLanguageSwitch(root = document) {
  for (const select of root.querySelectorAll('select[data-lang-select]')) {
    select.value = lang();
    select.addEventListener('change', () => setLanguage(select.value));
  }
  for (const button of root.querySelectorAll('button[data-lang]')) {
    button.setAttribute('aria-pressed', String(button.dataset.lang === lang()));
    button.addEventListener('click', () => setLanguage(button.dataset.lang));
  }
}
