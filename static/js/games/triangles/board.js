/**
 * board — the Triangles field on one canvas: stars, lines, filled triangles, the pending
 * line, a refused line, the rubber band, the selection, the keyboard cursor, and the
 * animations of the server's events. It draws what the server sent; it decides nothing.
 *
 *   const board = createBoard(container)
 *   board.setView(view)                 the whole picture from a server view (no animation)
 *   board.play(events, onStep)          → Promise: animates the events in order (line grows,
 *                                         its triangles fill from it); onStep(event) before each
 *   board.setPending({a, b, seat}|null) a line sent but not yet answered (dashed)
 *   board.setHint({a, b, seat}|null)    the review's better line (dashed, with end rings)
 *   board.setNumbers(on)                each star's number beside it (its index in the
 *                                         view's stars, plus one: the review's words use it);
 *                                         the box's data-star-numbers says how many were drawn
 *   board.refuse({a, b, star?, line?})  flashes a refused line (and the star / line the server
 *                                         named as the reason), fading out
 *   board.select(i|null), board.selected
 *   board.setCursor(i|null, visible)    the keyboard cursor
 *   board.setBand({from, x, y, snap}|null)  the rubber band of a drag (CSS px)
 *   board.setHover(i|null)
 *   board.setActiveSeat(seat|null)      colour of the selection and the band
 *   board.starAt(x, y, radius) → i|null the nearest star within radius (CSS px)
 *   board.point(i) → {x, y}             a star's position in CSS px
 *   board.stars                         the view's stars
 *
 * The board keeps the state and plays the events; scene.js paints a frame from it.
 */

import { createBoardCanvas } from '../../core/canvas.js';
import { animate, easeOut, reducedMotion } from '../../core/ui.js';
import { readColors } from './paint.js';
import { drawScene, fieldBox, fitField, starPoint } from './scene.js';
/** @import { TrianglesEvent, TrianglesView } from '../../types/wire' */

const LINE_MS = 260;
const TRIANGLE_MS = 360;
const REPLY_PAUSE_MS = 220;
const REFUSED_MS = 2400;

export function createBoard(container) {
  let colors = readColors(container);
  const s = {
    view: null,
    lines: [], // {a, b, seat, grow, flash}
    triangles: [], // {a, b, c, seat, fill, base:[a, b]}
    pending: null,
    hint: null, // {a, b, seat}: the better line a review shows
    numbers: false, // each star's number drawn beside it (a review names lines by them)
    refused: null, // {a, b, star, line, alpha}
    selected: null,
    cursor: null,
    cursorVisible: false,
    band: null,
    hover: null,
    activeSeat: 0,
    last: null,
  };
  let refusedTimer = 0;

  const surface = createBoardCanvas(container, draw);
  // The field (fill, glows, edge) is a box of CSS behind the canvas, on the field's place.
  const field = document.createElement('div');
  field.className = 'tri-field-face';
  field.hidden = true;
  container.prepend(field);
  let fieldPlace = '';
  window.addEventListener('themechange', () => {
    colors = readColors(container);
    surface.requestDraw();
  });

  /** The field's placement on the box as it is now. Taps, keys and bubbles use it, not the
   *  last frame's: one can come after a new view or a resize that the next frame has yet
   *  to draw (on a busy phone, long after), and must meet the stars that frame shows. */
  function liveFit() {
    const { width, height } = surface.boxSize();
    return fitField(s.view, width, height);
  }

  function point(i) {
    return starPoint(s.view, liveFit(), i);
  }

  function starAt(x, y, radius, except = null) {
    if (!s.view) return null;
    const now = liveFit();
    let best = null;
    let bestD = radius * radius;
    s.view.stars.forEach((_, i) => {
      if (i === except) return;
      const p = starPoint(s.view, now, i);
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d <= bestD) {
        best = i;
        bestD = d;
      }
    });
    return best;
  }

  /* ------------------------------------------------------------ drawing ---------- */

  function draw(ctx, width, height) {
    if (!s.view) return;
    const fit = fitField(s.view, width, height);
    placeField(fit, width, height);
    drawScene(ctx, s, fit, colors);
    container.dataset.starNumbers = s.numbers ? String(s.view.stars.length) : '0';
  }

  /** The field's box follows the frame's fit; its style is written only when it moved. In
   *  fractions of the board's box: when the box changes size, the field keeps inside it
   *  until the next frame places it anew. */
  function placeField(fit, width, height) {
    const { x, y, w, h } = fieldBox(fit);
    const place = `${x}|${y}|${w}|${h}|${width}|${height}`;
    if (place === fieldPlace) return;
    fieldPlace = place;
    const across = (v) => `${(v / width) * 100}%`;
    const down = (v) => `${(v / height) * 100}%`;
    Object.assign(field.style, { left: across(x), top: down(y), width: across(w), height: down(h) });
    field.style.setProperty('--glow-r', `${Math.max(w, h) * 0.55}px`);
    field.hidden = false;
  }

  /* ------------------------------------------------------------ state ------------- */

  /** @param {TrianglesView} view */
  function setView(view) {
    s.view = view;
    s.lines = view.lines.map(([a, b, seat]) => ({ a, b, seat, grow: 1, flash: 0 }));
    s.triangles = view.triangles.map(([a, b, c, seat]) => ({ a, b, c, seat, fill: 1, flash: 0, base: null }));
    s.last = view.last ? [view.last[0], view.last[1]] : null;
    s.pending = null;
    if (s.selected != null && s.selected >= view.stars.length) s.selected = null;
    if (s.cursor != null && s.cursor >= view.stars.length) s.cursor = null;
    surface.requestDraw();
  }

  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, reducedMotion() ? 0 : ms));

  async function playLine(event) {
    const { a, b, seat } = event;
    const matchesPending = s.pending && Math.min(s.pending.a, s.pending.b) === a && Math.max(s.pending.a, s.pending.b) === b;
    const line = { a, b, seat, grow: matchesPending ? 1 : 0, flash: 0 };
    if (matchesPending) s.pending = null;
    s.lines = s.lines.filter((l) => !(l.a === a && l.b === b));
    s.lines.push(line);
    s.last = [a, b];
    if (matchesPending) {
      await animate(LINE_MS * 0.8, (x) => {
        line.flash = 1 - x;
        surface.requestDraw();
      });
    } else {
      await animate(LINE_MS, (x) => {
        line.grow = easeOut(x);
        line.flash = x < 1 ? 0.6 : 0;
        surface.requestDraw();
      });
    }
    line.grow = 1;
    line.flash = 0;
    surface.requestDraw();
  }

  async function playTriangles(events, base) {
    const added = events.map((e) => ({ a: e.a, b: e.b, c: e.c, seat: e.seat, fill: 0, flash: 0, base }));
    s.triangles.push(...added);
    await animate(TRIANGLE_MS, (x) => {
      for (const tri of added) {
        tri.fill = x;
        tri.flash = x < 1 ? Math.sin(x * Math.PI) * 0.8 : 0;
      }
      surface.requestDraw();
    });
    for (const tri of added) {
      tri.fill = 1;
      tri.flash = 0;
    }
    surface.requestDraw();
  }

  /** @param {TrianglesEvent[]} events @param {(event: TrianglesEvent) => void} [onStep] */
  async function play(events, onStep = () => {}) {
    let base = null;
    let lastSeat = null;
    for (let i = 0; i < events.length; i += 1) {
      const event = events[i];
      if (event.type === 'line') {
        if (lastSeat !== null && lastSeat !== event.seat) await wait(REPLY_PAUSE_MS);
        onStep(event);
        await playLine(event);
        base = [event.a, event.b];
        lastSeat = event.seat;
      } else if (event.type === 'triangle') {
        const group = [event];
        for (let next = events[i + 1]; next?.type === 'triangle'; next = events[i + 1]) {
          group.push(next);
          i += 1;
        }
        for (const e of group) onStep(e);
        await playTriangles(group, base);
      } else {
        onStep(event);
      }
    }
  }

  function setPending(line) {
    s.pending = line;
    surface.requestDraw();
  }

  function refuse(refused) {
    clearTimeout(refusedTimer);
    s.refused = { ...refused, alpha: 1 };
    surface.requestDraw();
    refusedTimer = setTimeout(async () => {
      const current = s.refused;
      await animate(300, (x) => {
        if (s.refused === current) {
          current.alpha = 1 - x;
          surface.requestDraw();
        }
      });
      if (s.refused === current) {
        s.refused = null;
        surface.requestDraw();
      }
    }, REFUSED_MS);
  }

  function clearRefused() {
    clearTimeout(refusedTimer);
    if (s.refused) {
      s.refused = null;
      surface.requestDraw();
    }
  }

  function change(key, value) {
    if (s[key] === value) return;
    s[key] = value;
    surface.requestDraw();
  }

  return {
    get stars() {
      return s.view ? s.view.stars : [];
    },
    get selected() {
      return s.selected;
    },
    get cursor() {
      return s.cursor;
    },
    setView,
    play,
    setPending,
    setHint: (line) => change('hint', line),
    setNumbers: (on) => change('numbers', Boolean(on)),
    refuse,
    clearRefused,
    select: (i) => change('selected', i),
    setCursor(i, visible) {
      s.cursor = i;
      s.cursorVisible = Boolean(visible);
      surface.requestDraw();
    },
    setBand: (band) => {
      s.band = band;
      surface.requestDraw();
    },
    setHover: (i) => change('hover', i),
    setActiveSeat: (seat) => change('activeSeat', seat ?? 0),
    starAt,
    point,
  };
}
