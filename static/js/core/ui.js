/**
 * ui — small helpers for the HTML chrome around the canvases.
 *
 *   el(tag, attrs?, ...children)  → HTMLElement. attrs: class, text, dataset {…}, on {click: fn},
 *                                   style {prop: value} (CSSOM, allowed by the CSP; never a string),
 *                                   aria-, data- and other attributes (true → "", false/null → omitted),
 *                                   properties such as value/checked/disabled. Children: nodes or
 *                                   strings (always text nodes; never parsed as HTML), arrays, null.
 *   svg(tag, attrs?, ...children) → the same for SVG elements
 *   toast(text, {kind, ms}?)      → queues a toast ("info" | "success" | "error"), one shown at a
 *                                   time over the site header; returns its element
 *   openDialog(dialog)            → Promise<returnValue>; showModal(), closes on a backdrop click
 *   closeDialog(dialog, value?)   → closes it with that returnValue
 *   copyLink(url?)                → Promise<boolean>; clipboard (with a fallback), toasts the result
 *   shareLink(url?, title?)       → Web Share API where present, else copyLink
 *   formatTime(ms)                → "m:ss" ("h:mm:ss" from an hour)
 *   announce(live, text)          says text through an aria-live region (cleared first, so the
 *                                   same words twice are read twice)
 *   reducedMotion()               → true when the player prefers reduced motion
 *   animate(durationMs, frame)    → Promise; calls frame(t) with t from 0 to 1 on animation frames
 *                                   (frame(1) at once under reduced motion)
 *   easeOut(t)                    → cubic ease-out of t in [0, 1]
 *   pageConfig()                  → the page's JSON (<script id="page-config">): game, variant, number…
 */

import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const PROPS = new Set(['value', 'checked', 'disabled', 'selected', 'hidden', 'type', 'href', 'htmlFor', 'tabIndex']);

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class' || key === 'className') node.setAttribute('class', value);
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (key === 'style') Object.assign(node.style, value); // CSSOM: allowed by the CSP
    else if (PROPS.has(key) && !(node instanceof SVGElement)) node[key] = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  const add = (child) => {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) child.forEach(add);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  };
  children.forEach(add);
  return node;
}

export function el(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function toastStack() {
  let stack = document.getElementById('toasts');
  if (!stack) {
    stack = el('div', { id: 'toasts', class: 'toast-stack', role: 'status', 'aria-live': 'polite' });
    document.body.append(stack);
  }
  return stack;
}

const queue = [];

/** One toast at a time, over the site header (never over the score): others wait.
 *  @param {string} text @param {{kind?: string, ms?: number}} [options] */
export function toast(text, { kind = 'info', ms } = {}) {
  const node = el('div', { class: `toast toast--${kind}` }, text);
  if (kind === 'error') node.setAttribute('role', 'alert');
  queue.push({ node, ms: ms ?? (kind === 'error' ? 5000 : 2800) });
  if (queue.length > 4) queue.splice(1, 1); // the oldest waiting one goes
  if (queue.length === 1) showNext();
  return node;
}

function showNext() {
  const entry = queue[0];
  if (!entry) return;
  const { node, ms } = entry;
  toastStack().append(node);
  let done = false;
  const remove = () => {
    if (done) return;
    done = true;
    node.classList.add('is-leaving');
    setTimeout(() => {
      node.remove();
      queue.shift();
      showNext();
    }, reducedMotion() ? 0 : 220);
  };
  setTimeout(remove, queue.length > 1 ? Math.min(ms, 1600) : ms);
  node.addEventListener('click', remove);
}

export function openDialog(dialog) {
  return new Promise((resolve) => {
    const onClick = (event) => {
      if (event.target === dialog) closeDialog(dialog, 'cancel'); // the backdrop
    };
    dialog.addEventListener('click', onClick);
    dialog.addEventListener('close', () => {
      dialog.removeEventListener('click', onClick);
      resolve(dialog.returnValue);
    }, { once: true });
    dialog.returnValue = '';
    if (!dialog.open) dialog.showModal();
  });
}

export function closeDialog(dialog, value = '') {
  if (dialog.open) dialog.close(value);
}

function copyFallback(text) {
  const area = el('textarea', { class: 'visually-hidden', readonly: true, 'aria-hidden': 'true' });
  area.value = text;
  document.body.append(area);
  area.select();
  let done = false;
  try {
    done = document.execCommand('copy');
  } catch {
    done = false;
  }
  area.remove();
  return done;
}

export async function copyLink(url = location.href) {
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(url);
      done = true;
    }
  } catch {
    done = false;
  }
  if (!done) done = copyFallback(url);
  toast(done ? t('common.link_copied') : t('common.copy_failed'), { kind: done ? 'success' : 'error' });
  return done;
}

export async function shareLink(url = location.href, title = document.title) {
  if (navigator.share) {
    try {
      await navigator.share({ url, title });
      return true;
    } catch (error) {
      if (error && error.name === 'AbortError') return false; // the player closed the sheet
    }
  }
  return copyLink(url);
}

export function formatTime(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const motionQuery = window.matchMedia('(prefers-reduced-motion: reduce)');

export function announce(live, text) {
  live.textContent = '';
  requestAnimationFrame(() => {
    live.textContent = text;
  });
}

/** Resolves once the browser has painted the page as it is now (a frame, then a task):
 *  what can wait a frame (a dialog over a board just drawn) then runs in a task of its own
 *  rather than lengthening the one that drew. */
export function afterPaint() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export function reducedMotion() {
  return motionQuery.matches;
}

export function easeOut(x) {
  return 1 - (1 - x) ** 3;
}

export function animate(durationMs, frame) {
  return new Promise((resolve) => {
    if (reducedMotion() || durationMs <= 0) {
      frame(1);
      resolve();
      return;
    }
    const start = performance.now();
    const step = (now) => {
      const x = Math.min(1, (now - start) / durationMs);
      frame(x);
      if (x < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

let config = null;

export function pageConfig() {
  if (config === null) {
    try {
      config = JSON.parse(document.getElementById('page-config')?.textContent || '{}');
    } catch {
      config = {};
    }
  }
  return config;
}
