/**
 * intl-worker — a worker that only makes one date and one number formatter (see intl.js):
 * the first formatter of a renderer process loads ICU's locale data, which the process's
 * threads then share, so the page's own first formatter no longer pays for it.
 * Its name is the page's language.
 */

const locale = self.name || 'en';
new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'long' }).format(Date.now());
new Intl.NumberFormat(locale).format(1234.5);
postMessage('ready');
