/**
 * canvas — one crisp canvas per board, sized to its container and devicePixelRatio (at most 2).
 *
 *   const board = createBoardCanvas(container, draw, {prepare})
 *     container  a positioned element with a size of its own (.board-box, .tray-box); the
 *                canvas (class "board-canvas", absolutely placed) is appended to it and
 *                fills it. Its position is left to the stylesheet: reading it here would
 *                force a style pass while the page's script runs.
 *     draw(ctx, width, height)  paints everything; called with the transform set so that
 *                units are CSS pixels, after every resize, DPR change and themechange (the
 *                first one in the frame after the container's first layout, or later:
 *                one board's first draw a frame)
 *     prepare()  optional: work the first draw needs that forces a style pass (reading the
 *                theme's colours), run in a task of its own between the page's first layout
 *                and that draw, when the page's style is clean and the pass is cheap; the
 *                draw must still work without it (it may come first)
 *   board.canvas, board.ctx, board.width, board.height (CSS px), board.dpr
 *   board.requestDraw()         schedule one draw on the next animation frame (batched)
 *   board.drawNow()             draw synchronously
 *   board.toLocal(clientX, clientY) → {x, y} in CSS px relative to the canvas
 *   board.boxSize()             → {width, height}: the container's size now, which the next
 *                draw will have (board.width and .height are the last resize's: a tap can
 *                come after the box changed size and before that resize, on a busy phone
 *                long after, and must meet what the next frame shows)
 *   board.destroy()             stop observing and remove the canvas
 */

// The backing store's pixel ratio, at most 2: a 3× phone's canvas is drawn at 2× and scaled
// up, which at ~460 ppi cannot be told apart at arm's length, while every frame paints and
// hands the compositor 2.25× fewer pixels (on a throttled phone that halved the deal's
// longest frames, see bench/pages.py).
const MAX_DPR = 2;

// Boards sized for the first time take a frame each, from the frame after the one that laid
// the page out: on a slow phone the page's first layout and each board's first raster
// (Blocks has two, the board and its tray) each cost a long task of its own, and together
// one too long. Later resizes draw at once, so a board never shows a blank frame.
const firstSizes = [];

function takeFirstSize(size) {
  firstSizes.push(size);
  if (firstSizes.length === 1) requestAnimationFrame(sizeNext);
}

function sizeNext() {
  try {
    firstSizes.shift()?.();
  } finally {
    if (firstSizes.length) requestAnimationFrame(sizeNext);
  }
}

/**
 * @param {HTMLElement} container
 * @param {(ctx: CanvasRenderingContext2D, width: number, height: number) => void} draw
 * @param {{prepare?: () => unknown}} [options]
 */
export function createBoardCanvas(container, draw, { prepare } = {}) {
  const canvas = document.createElement('canvas');
  canvas.className = 'board-canvas';
  container.append(canvas);
  const ctx = canvas.getContext('2d');

  const board = {
    canvas,
    ctx,
    width: 0,
    height: 0,
    dpr: 1,
    requestDraw,
    drawNow,
    toLocal,
    boxSize,
    destroy,
  };

  let frame = 0;
  let dprQuery = null;

  function boxSize() {
    const rect = container.getBoundingClientRect();
    return { width: Math.max(0, rect.width), height: Math.max(0, rect.height) };
  }

  function resize() {
    const dpr = Math.min(MAX_DPR, window.devicePixelRatio || 1);
    const { width, height } = boxSize();
    const pixelWidth = Math.round(width * dpr);
    const pixelHeight = Math.round(height * dpr);
    board.width = width;
    board.height = height;
    board.dpr = dpr;
    if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
      canvas.width = pixelWidth;
      canvas.height = pixelHeight;
    }
    drawNow();
  }

  function drawNow() {
    if (frame) {
      cancelAnimationFrame(frame);
      frame = 0;
    }
    if (!board.width || !board.height) return;
    ctx.setTransform(board.dpr, 0, 0, board.dpr, 0, 0);
    ctx.clearRect(0, 0, board.width, board.height);
    draw(ctx, board.width, board.height);
  }

  function requestDraw() {
    if (!frame) frame = requestAnimationFrame(() => {
      frame = 0;
      drawNow();
    });
  }

  function toLocal(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    return { x: clientX - rect.left, y: clientY - rect.top };
  }

  // A DPR change (moving the window to another screen, zooming) fires the query once.
  function watchDpr() {
    dprQuery?.removeEventListener('change', onDprChange);
    dprQuery = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    dprQuery.addEventListener('change', onDprChange);
  }

  function onDprChange() {
    watchDpr();
    resize();
  }

  let sized = false;
  const sizeFirst = () => {
    sized = true;
    resize();
  };
  const observer = new ResizeObserver(() => {
    if (sized) resize();
    else if (!firstSizes.includes(sizeFirst)) {
      if (prepare) setTimeout(prepare);
      takeFirstSize(sizeFirst);
    }
  });
  observer.observe(container);
  const onOrientation = () => resize();
  window.addEventListener('orientationchange', onOrientation);
  window.addEventListener('themechange', requestDraw);
  watchDpr();
  // No resize() here: the observer's first call queues the first size (firstSizes), so
  // building a page neither forces a layout nor draws in its script's task.

  function destroy() {
    observer.disconnect();
    dprQuery?.removeEventListener('change', onDprChange);
    window.removeEventListener('orientationchange', onOrientation);
    window.removeEventListener('themechange', requestDraw);
    cancelAnimationFrame(frame);
    const queued = firstSizes.indexOf(sizeFirst);
    if (queued >= 0) firstSizes.splice(queued, 1);
    canvas.remove();
  }

  return board;
}
