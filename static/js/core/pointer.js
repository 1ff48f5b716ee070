/**
 * pointer — mouse, pen and touch alike, through Pointer Events.
 *
 *   const off = onPointer(element, {down, move, up, cancel, tap, hover}, {tapSlop, tapMs})
 *
 * One pointer at a time (extra fingers are ignored). The element gets touch-action: none
 * and pointer capture, so a drag keeps reporting outside it. Every callback receives
 *   {x, y, startX, startY, dx, dy, type, id, event}
 * with x/y in CSS px relative to the element (startX/startY where the press began,
 * dx/dy = x - startX, y - startY) and type = "mouse" | "pen" | "touch".
 *   down   press began           move  pointer moved while pressed
 *   up     press ended           cancel press aborted (pointercancel, lost capture)
 *   tap    after up, when the pointer stayed within tapSlop px (10) and tapMs ms (500),
 *          timed by the events' own time stamps: a press the page handled late (a long
 *          task between its down and its up) is still as short as the player made it
 *   hover  mouse/pen moved without a press (previews on desktop)
 * off() removes every listener.
 */

export function onPointer(element, handlers = {}, { tapSlop = 10, tapMs = 500 } = {}) {
  const { down, move, up, cancel, tap, hover } = handlers;
  let active = null; // {id, startX, startY, at, moved}

  element.style.touchAction = 'none';

  function info(event) {
    const rect = element.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const startX = active ? active.startX : x;
    const startY = active ? active.startY : y;
    return { x, y, startX, startY, dx: x - startX, dy: y - startY, type: event.pointerType || 'mouse', id: event.pointerId, event };
  }

  function onDown(event) {
    if (active) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const rect = element.getBoundingClientRect();
    active = {
      id: event.pointerId,
      startX: event.clientX - rect.left,
      startY: event.clientY - rect.top,
      at: event.timeStamp,
      moved: false,
    };
    try {
      element.setPointerCapture(event.pointerId);
    } catch {
      /* the pointer may already be gone */
    }
    event.preventDefault();
    down?.(info(event));
  }

  function onMove(event) {
    if (!active) {
      if (event.pointerType !== 'touch') hover?.(info(event));
      return;
    }
    if (event.pointerId !== active.id) return;
    const data = info(event);
    if (Math.hypot(data.dx, data.dy) > tapSlop) active.moved = true;
    move?.(data);
  }

  function onUp(event) {
    if (!active || event.pointerId !== active.id) return;
    const data = info(event);
    const quick = event.timeStamp - active.at <= tapMs;
    const still = !active.moved && Math.hypot(data.dx, data.dy) <= tapSlop;
    active = null;
    try {
      element.releasePointerCapture(event.pointerId);
    } catch {
      /* already released */
    }
    up?.(data);
    if (quick && still) tap?.(data);
  }

  function onCancel(event) {
    if (!active || event.pointerId !== active.id) return;
    const data = info(event);
    active = null;
    cancel?.(data);
  }

  const noMenu = (event) => event.preventDefault();
  const listeners = [
    ['pointerdown', onDown],
    ['pointermove', onMove],
    ['pointerup', onUp],
    ['pointercancel', onCancel],
    ['lostpointercapture', onCancel],
    ['contextmenu', noMenu],
  ];
  for (const [type, fn] of listeners) element.addEventListener(type, fn);
  return () => {
    for (const [type, fn] of listeners) element.removeEventListener(type, fn);
  };
}
