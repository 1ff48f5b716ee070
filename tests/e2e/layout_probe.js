/* One report of everything wrong on the page as it is: overflowing or clipped boxes, controls
out of the viewport, touch targets under 44 px, a word of a label, button, heading or table
header or player's name broken over two lines (the lines a word's letters sit on, from
Range.getClientRects; a break after a hyphen or a slash is a break between words), an end
card that scrolls inside itself or hides a part below its fold; a name cut short by an
ellipsis is an overflowing box. Inside an open modal dialog only the dialog
counts (the page behind it is inert).
   Used by tests/e2e/checks.py (page.evaluate). */
(touch) => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const dialog = document.querySelector('dialog[open]');
  const scope = dialog || document.body;
  const name = (el) => {
    const id = el.id ? '#' + el.id : '';
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
    return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
  };
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true })
    && !el.closest('.visually-hidden, [aria-hidden="true"], .toast-stack, #connection-banner');
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  for (const el of scope.querySelectorAll('*')) {
    if (!shown(el) || el instanceof SVGElement || el.tagName === 'CANVAS') continue;
    if (['OPTION', 'SCRIPT', 'STYLE', 'TEXTAREA', 'INPUT'].includes(el.tagName)) continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !scrolls(el)) {
      out.push(`overflow ${el.scrollWidth}>${el.clientWidth}: ${name(el)}`);
    }
  }
  const controls = scope.querySelectorAll('button, a[href], select, [role=button], [role=tab], [tabindex]:not([tabindex="-1"]), input:not([type=radio]):not([type=checkbox]), summary, label:has(> input[type=radio]), label:has(> input[type=checkbox])');
  for (const el of controls) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const box = el.closest('.side-panel, .site-footer, .lobby, dialog .dialog-body') ? null : el.closest('.game-stage, dialog');
    // controls of the game and of a dialog's fixed parts must be on screen without scrolling
    if (box && (r.left < -1 || r.right > vw + 1 || r.top < -1 || r.bottom > vh + 1)) {
      out.push(`off-screen [${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.right)},${Math.round(r.bottom)}]: ${name(el)}`);
    } else if (r.left < -1 || r.right > vw + 1) {
      out.push(`off-screen sideways: ${name(el)}`);
    }
    const inline = el.tagName === 'A' && getComputedStyle(el).display === 'inline';
    if (touch && !inline && (r.width < 43.5 || r.height < 43.5)) {
      out.push(`small ${Math.round(r.width)}×${Math.round(r.height)}: ${name(el)}`);
    }
  }
  // labels, headings and players' names (issue 36: "Maximilian/e" on the end card)
  const wordy = scope.querySelectorAll('label, button, h1, h2, h3, h4, h5, h6, th, dt, summary, legend, a, [role=button], [role=tab], [class*="label"], [class*="title"], [class*="__name"], [data-name]');
  const range = document.createRange();
  for (const el of wordy) {
    if (!shown(el)) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\s\-‐‑–—/]+/g)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
        if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 2) {
          out.push(`word broken "${m[0]}": ${name(el)}`);
          break;
        }
      }
    }
  }
  // An end card shows the whole result without scrolling: its body (scores, offers and their
  // buttons) may scroll in other dialogs, not here (issue 36: it hid the score, the rematch).
  const endCard = dialog?.querySelector('[data-end-actions]') ? dialog : null;
  for (const box of endCard ? [endCard, ...endCard.querySelectorAll('*')] : []) {
    if (!shown(box) || !['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowY)) continue;
    if (box.scrollHeight > box.clientHeight + 1) {
      out.push(`end card scrolls inside itself by ${box.scrollHeight - box.clientHeight}px: ${name(box)}`);
    }
  }
  const body = endCard && dialog.querySelector('.dialog-body');
  if (body && shown(body)) {
    const bottom = body.getBoundingClientRect().top + body.clientTop + body.clientHeight + 1;
    for (const part of body.children) {
      const r = part.getBoundingClientRect();
      if (shown(part) && r.height > 0 && r.bottom > bottom) {
        out.push(`end card hides ${Math.round(r.bottom - bottom)}px below its fold: ${name(part)}`);
      }
    }
  }
  if (document.documentElement.scrollWidth > vw + 1) out.push(`page scrolls sideways by ${document.documentElement.scrollWidth - vw}px`);
  return out;
}
