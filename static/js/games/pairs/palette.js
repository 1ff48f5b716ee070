/**
 * palette — the Pairs board's colours, read from the theme's CSS variables (with the
 * light theme's values when one is missing). The board reads it again after a theme
 * change.
 */

import { cssVar } from '../../core/theme.js';

export function pairsPalette() {
  const v = (name, fallback) => cssVar(name) || fallback;
  return {
    face: v('--pairs-tile-face', '#fbf8f1'),
    face2: v('--pairs-tile-face-2', '#efe8da'),
    side: v('--pairs-tile-side', '#cfc3ad'),
    edge: v('--pairs-tile-edge', 'rgba(90, 70, 40, 0.18)'),
    shadow: v('--pairs-tile-shadow', 'rgba(30, 30, 60, 0.22)'),
    slot: v('--pairs-slot', 'rgba(120, 128, 160, 0.12)'),
    board: v('--pairs-board', 'rgba(120, 128, 160, 0.10)'),
    select: v('--pairs-select', '#0fb9a8'),
    twin: v('--pairs-twin', 'rgba(15, 185, 168, 0.22)'),
    blocker: v('--pairs-blocker', '#ff3d8b'),
    refused: v('--pairs-refused', '#e8590c'),
    hint: v('--pairs-hint', '#f5a300'),
    path: v('--pairs-path', '#0fb9a8'),
    pathCase: v('--pairs-path-case', '#ffffff'),
    cursor: v('--focus', '#2f6bff'),
    text: v('--text', '#151a2d'),
    popup: v('--pairs-popup', '#0b8f82'),
  };
}
