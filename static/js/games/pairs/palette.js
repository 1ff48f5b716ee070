/**
 * palette — the Pairs board's colours, read from the theme's CSS variables (with the
 * light theme's values when one is missing). The board reads it again after a theme
 * change.
 */

import { cssVars } from '../../core/theme.js';

const COLOURS = {  // key: [custom property, the light theme's value]
  face: ['--pairs-tile-face', '#fbf8f1'],
  face2: ['--pairs-tile-face-2', '#efe8da'],
  side: ['--pairs-tile-side', '#cfc3ad'],
  edge: ['--pairs-tile-edge', 'rgba(90, 70, 40, 0.18)'],
  shadow: ['--pairs-tile-shadow', 'rgba(30, 30, 60, 0.22)'],
  slot: ['--pairs-slot', 'rgba(120, 128, 160, 0.12)'],
  board: ['--pairs-board', 'rgba(120, 128, 160, 0.10)'],
  select: ['--pairs-select', '#0fb9a8'],
  twin: ['--pairs-twin', 'rgba(15, 185, 168, 0.22)'],
  blocker: ['--pairs-blocker', '#ff3d8b'],
  refused: ['--pairs-refused', '#e8590c'],
  hint: ['--pairs-hint', '#f5a300'],
  path: ['--pairs-path', '#0fb9a8'],
  pathCase: ['--pairs-path-case', '#ffffff'],
  cursor: ['--focus', '#2f6bff'],
  text: ['--text', '#151a2d'],
  popup: ['--pairs-popup', '#0b8f82'],
};

export function pairsPalette() {
  const values = cssVars(Object.values(COLOURS).map(([name]) => name));
  return Object.fromEntries(Object.entries(COLOURS).map(([key, [name, fallback]]) => [key, values[name] || fallback]));
}
