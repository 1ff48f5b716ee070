/**
 * pictures — the 16 tile pictures of Pairs, drawn in code (canvas paths, crisp at any scale).
 *
 * Each picture has its own silhouette (star, heart, moon, drop, …), so two pictures never
 * differ by colour alone; the colours add a second cue for players who see them.
 *
 *   PICTURES[id]            {name, color}; id is the engine's picture id (0..15)
 *   drawPicture(ctx, id, x, y, size)   paints picture `id` in the square (x, y, size, size)
 *
 * Every picture is drawn in a 100 × 100 box; the caller's transform scales it.
 */

const TAU = Math.PI * 2;

const PICTURES = [
  { name: 'star', color: '#f2a200' },
  { name: 'heart', color: '#e5383b' },
  { name: 'moon', color: '#5b5bd6' },
  { name: 'drop', color: '#1f7fe0' },
  { name: 'leaf', color: '#2f9e44' },
  { name: 'gem', color: '#1098ad' },
  { name: 'flower', color: '#e64980' },
  { name: 'bolt', color: '#f76707' },
  { name: 'cloud', color: '#6f8bb8' },
  { name: 'bell', color: '#b7791f' },
  { name: 'fish', color: '#0c9c88' },
  { name: 'mushroom', color: '#c92a2a' },
  { name: 'snowflake', color: '#3d9be9' },
  { name: 'note', color: '#9c36b5' },
  { name: 'crown', color: '#d08700' },
  { name: 'cherries', color: '#c2255c' },
];

const INK = 'rgba(255, 255, 255, 0.92)';
const SHINE = 'rgba(255, 255, 255, 0.38)';
const DARK = 'rgba(20, 22, 40, 0.82)';

function circle(ctx, x, y, r) {
  ctx.moveTo(x + r, y);
  ctx.arc(x, y, r, 0, TAU);
}

function polygon(ctx, points) {
  ctx.moveTo(points[0], points[1]);
  for (let i = 2; i < points.length; i += 2) ctx.lineTo(points[i], points[i + 1]);
  ctx.closePath();
}

function fill(ctx, color, build, rule = 'nonzero') {
  ctx.beginPath();
  build();
  ctx.fillStyle = color;
  ctx.fill(rule);
}

function stroke(ctx, color, width, build) {
  ctx.beginPath();
  build();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.stroke();
}

// The crescent: the outer disc minus an offset disc, built from the two circles'
// intersection points so it is one closed path.
const MOON = (() => {
  const [x1, y1, r1] = [48, 52, 40];
  const [x2, y2, r2] = [66, 36, 33];
  const d = Math.hypot(x2 - x1, y2 - y1);
  const a = (r1 * r1 - r2 * r2 + d * d) / (2 * d);
  const h = Math.sqrt(r1 * r1 - a * a);
  const mx = x1 + (a * (x2 - x1)) / d;
  const my = y1 + (a * (y2 - y1)) / d;
  /** @type {[number, number]} */
  const p = [mx + (h * (y2 - y1)) / d, my - (h * (x2 - x1)) / d];
  /** @type {[number, number]} */
  const q = [mx - (h * (y2 - y1)) / d, my + (h * (x2 - x1)) / d];
  const angle = (cx, cy, [px, py]) => Math.atan2(py - cy, px - cx);
  return { x1, y1, r1, x2, y2, r2, a1: angle(x1, y1, p), b1: angle(x1, y1, q), a2: angle(x2, y2, p), b2: angle(x2, y2, q) };
})();

const DRAW = [
  // 0 star
  (ctx, c) => {
    fill(ctx, c, () => {
      for (let i = 0; i < 10; i += 1) {
        const r = i % 2 ? 19 : 45;
        const t = -Math.PI / 2 + (i * Math.PI) / 5;
        const x = 50 + r * Math.cos(t);
        const y = 54 + r * Math.sin(t);
        if (i) ctx.lineTo(x, y);
        else ctx.moveTo(x, y);
      }
      ctx.closePath();
    });
    fill(ctx, SHINE, () => polygon(ctx, [50, 17, 56, 40, 50, 44, 44, 40]));
  },
  // 1 heart
  (ctx, c) => {
    fill(ctx, c, () => {
      ctx.moveTo(50, 88);
      ctx.bezierCurveTo(22, 68, 8, 52, 8, 34);
      ctx.bezierCurveTo(8, 20, 19, 11, 31, 11);
      ctx.bezierCurveTo(40, 11, 46, 16, 50, 24);
      ctx.bezierCurveTo(54, 16, 60, 11, 69, 11);
      ctx.bezierCurveTo(81, 11, 92, 20, 92, 34);
      ctx.bezierCurveTo(92, 52, 78, 68, 50, 88);
      ctx.closePath();
    });
    stroke(ctx, SHINE, 6, () => ctx.arc(31, 34, 13, Math.PI * 1.05, Math.PI * 1.5));
  },
  // 2 moon (crescent) with a small star beside it
  (ctx, c) => {
    const m = MOON;
    fill(ctx, c, () => {
      ctx.arc(m.x1, m.y1, m.r1, m.a1, m.b1, true);
      ctx.arc(m.x2, m.y2, m.r2, m.b2, m.a2, false);
      ctx.closePath();
    });
    fill(ctx, c, () => {
      const [x, y, r] = [80, 26, 11];
      ctx.moveTo(x, y - r);
      ctx.quadraticCurveTo(x, y, x + r, y);
      ctx.quadraticCurveTo(x, y, x, y + r);
      ctx.quadraticCurveTo(x, y, x - r, y);
      ctx.quadraticCurveTo(x, y, x, y - r);
    });
  },
  // 3 drop
  (ctx, c) => {
    fill(ctx, c, () => {
      ctx.moveTo(50, 6);
      ctx.bezierCurveTo(50, 6, 18, 44, 18, 62);
      ctx.arc(50, 62, 32, Math.PI, 0, true);
      ctx.bezierCurveTo(82, 44, 50, 6, 50, 6);
      ctx.closePath();
    });
    stroke(ctx, SHINE, 6, () => ctx.arc(50, 62, 20, Math.PI * 0.62, Math.PI * 0.95));
  },
  // 4 leaf
  (ctx, c) => {
    fill(ctx, c, () => {
      ctx.moveTo(14, 86);
      ctx.bezierCurveTo(10, 44, 38, 14, 88, 12);
      ctx.bezierCurveTo(90, 60, 60, 90, 14, 86);
      ctx.closePath();
    });
    stroke(ctx, INK, 4.5, () => {
      ctx.moveTo(12, 88);
      ctx.quadraticCurveTo(44, 58, 72, 28);
      ctx.moveTo(40, 60);
      ctx.lineTo(38, 42);
      ctx.moveTo(56, 44);
      ctx.lineTo(55, 30);
      ctx.moveTo(40, 60);
      ctx.lineTo(58, 62);
      ctx.moveTo(56, 44);
      ctx.lineTo(72, 46);
    });
  },
  // 5 gem
  (ctx, c) => {
    fill(ctx, c, () => polygon(ctx, [28, 14, 72, 14, 92, 38, 50, 90, 8, 38]));
    fill(ctx, SHINE, () => polygon(ctx, [28, 14, 50, 14, 38, 38, 8, 38]));
    stroke(ctx, 'rgba(255,255,255,0.7)', 3, () => {
      polygon(ctx, [8, 38, 92, 38]);
      ctx.moveTo(28, 14);
      ctx.lineTo(38, 38);
      ctx.lineTo(50, 90);
      ctx.lineTo(62, 38);
      ctx.lineTo(72, 14);
      ctx.moveTo(38, 38);
      ctx.lineTo(50, 14);
      ctx.lineTo(62, 38);
    });
  },
  // 6 flower: five round petals and a yellow heart
  (ctx, c) => {
    fill(ctx, c, () => {
      for (let i = 0; i < 5; i += 1) {
        const t = -Math.PI / 2 + (i * TAU) / 5;
        circle(ctx, 50 + 24 * Math.cos(t), 52 + 24 * Math.sin(t), 19);
      }
    });
    fill(ctx, '#ffd43b', () => circle(ctx, 50, 52, 14));
    fill(ctx, '#f08c00', () => circle(ctx, 50, 52, 6));
  },
  // 7 lightning bolt
  (ctx, c) => {
    fill(ctx, c, () => polygon(ctx, [60, 4, 16, 56, 45, 56, 36, 96, 84, 38, 55, 38, 66, 4]));
    fill(ctx, SHINE, () => polygon(ctx, [60, 4, 66, 4, 55, 38, 49, 38]));
  },
  // 8 cloud
  (ctx, c) => {
    fill(ctx, c, () => {
      circle(ctx, 30, 60, 20);
      circle(ctx, 52, 45, 26);
      circle(ctx, 74, 60, 18);
      ctx.rect(30, 56, 44, 24);
    });
    fill(ctx, c, () => ctx.roundRect(10, 60, 82, 20, 10));
    stroke(ctx, SHINE, 6, () => ctx.arc(52, 45, 15, Math.PI * 1.1, Math.PI * 1.55));
  },
  // 9 bell
  (ctx, c) => {
    fill(ctx, c, () => {
      ctx.moveTo(50, 14);
      ctx.bezierCurveTo(30, 14, 24, 32, 24, 50);
      ctx.bezierCurveTo(24, 62, 18, 68, 10, 76);
      ctx.lineTo(90, 76);
      ctx.bezierCurveTo(82, 68, 76, 62, 76, 50);
      ctx.bezierCurveTo(76, 32, 70, 14, 50, 14);
      ctx.closePath();
    });
    fill(ctx, c, () => circle(ctx, 50, 86, 9));
    fill(ctx, c, () => circle(ctx, 50, 11, 6));
    stroke(ctx, SHINE, 6, () => {
      ctx.moveTo(36, 58);
      ctx.quadraticCurveTo(35, 36, 44, 28);
    });
  },
  // 10 fish
  (ctx, c) => {
    fill(ctx, c, () => {
      ctx.ellipse(42, 50, 32, 22, 0, 0, TAU);
      polygon(ctx, [66, 50, 94, 26, 88, 50, 94, 74]);
    });
    fill(ctx, INK, () => circle(ctx, 28, 44, 7));
    fill(ctx, DARK, () => circle(ctx, 27, 44, 3.5));
    stroke(ctx, SHINE, 4.5, () => {
      ctx.arc(36, 50, 20, -0.5, 0.5);
    });
  },
  // 11 mushroom: a dotted cap on a cream stem
  (ctx, c) => {
    fill(ctx, '#e9d8bd', () => ctx.roundRect(36, 50, 28, 40, 10));
    stroke(ctx, 'rgba(120, 90, 50, 0.55)', 3, () => ctx.roundRect(36, 50, 28, 40, 10));
    fill(ctx, c, () => {
      ctx.moveTo(6, 56);
      ctx.bezierCurveTo(6, 28, 26, 10, 50, 10);
      ctx.bezierCurveTo(74, 10, 94, 28, 94, 56);
      ctx.quadraticCurveTo(50, 64, 6, 56);
      ctx.closePath();
    });
    fill(ctx, INK, () => {
      circle(ctx, 32, 32, 7);
      circle(ctx, 58, 24, 6);
      circle(ctx, 72, 42, 6);
      circle(ctx, 46, 46, 5);
    });
  },
  // 12 snowflake
  (ctx, c) => {
    stroke(ctx, c, 8, () => {
      for (let i = 0; i < 3; i += 1) {
        const t = Math.PI / 2 + (i * Math.PI) / 3;
        const dx = Math.cos(t) * 42;
        const dy = Math.sin(t) * 42;
        ctx.moveTo(50 - dx, 50 - dy);
        ctx.lineTo(50 + dx, 50 + dy);
      }
      for (let i = 0; i < 6; i += 1) {
        const t = Math.PI / 2 + (i * Math.PI) / 3;
        const bx = 50 + Math.cos(t) * 26;
        const by = 50 + Math.sin(t) * 26;
        for (const side of [-1, 1]) {
          const u = t + side * 0.75;
          ctx.moveTo(bx, by);
          ctx.lineTo(bx + Math.cos(u) * 15, by + Math.sin(u) * 15);
        }
      }
    });
    fill(ctx, c, () => circle(ctx, 50, 50, 9));
  },
  // 13 music note (two beamed eighth notes)
  (ctx, c) => {
    fill(ctx, c, () => {
      ctx.ellipse(28, 76, 15, 11, -0.4, 0, TAU);
      ctx.ellipse(74, 66, 15, 11, -0.4, 0, TAU);
    });
    fill(ctx, c, () => {
      ctx.rect(35, 24, 7, 52);
      ctx.rect(81, 14, 7, 52);
      polygon(ctx, [35, 22, 88, 10, 88, 26, 35, 38]);
    });
  },
  // 14 crown with three jewels
  (ctx, c) => {
    fill(ctx, c, () => {
      polygon(ctx, [10, 70, 14, 28, 34, 50, 50, 18, 66, 50, 86, 28, 90, 70]);
      ctx.roundRect(10, 72, 80, 14, 4);
    });
    fill(ctx, c, () => {
      circle(ctx, 14, 26, 6);
      circle(ctx, 50, 16, 6);
      circle(ctx, 86, 26, 6);
    });
    fill(ctx, '#e03131', () => circle(ctx, 50, 58, 7));
    fill(ctx, '#1c7ed6', () => {
      circle(ctx, 28, 62, 5);
      circle(ctx, 72, 62, 5);
    });
  },
  // 15 cherries
  (ctx, c) => {
    stroke(ctx, '#2b8a3e', 5, () => {
      ctx.moveTo(30, 66);
      ctx.quadraticCurveTo(40, 36, 62, 14);
      ctx.moveTo(72, 70);
      ctx.quadraticCurveTo(70, 40, 62, 14);
    });
    fill(ctx, '#40c057', () => {
      ctx.moveTo(62, 14);
      ctx.quadraticCurveTo(78, 2, 92, 14);
      ctx.quadraticCurveTo(76, 24, 62, 14);
    });
    fill(ctx, c, () => {
      circle(ctx, 28, 72, 18);
      circle(ctx, 72, 74, 18);
    });
    fill(ctx, SHINE, () => {
      circle(ctx, 22, 66, 5);
      circle(ctx, 66, 68, 5);
    });
  },
];

/** Paints picture `id` into the square (x, y) – (x + size, y + size) of the current transform. */
export function drawPicture(ctx, id, x, y, size) {
  const picture = PICTURES[id];
  const draw = DRAW[id];
  if (!picture || !draw) return;
  ctx.save();
  ctx.translate(x, y);
  ctx.scale(size / 100, size / 100);
  draw(ctx, picture.color);
  ctx.restore();
}

export function pictureColor(id) {
  return PICTURES[id]?.color ?? '#888888';
}

export function pictureName(id) {
  return PICTURES[id]?.name ?? 'tile';
}
