/**
 * arena/live — an arena page's live line to the server: the socket /ws/arenas/{id}
 * (same origin, ?key= for a private arena) and, while it is down, GET /api/arenas/{id}
 * every few seconds. Every (re)opened socket reads the arena again first: what changed
 * while it was closed is not replayed.
 *
 *   const live = arenaLive(id, key, {onArena(arena), onPaired(gameId), onError(error), onStatus(s)})
 *   live.refresh()   GET now (→ the arena, or null after onError)
 *   live.close()
 *   s: "open" | "closed"; a socket closed with 4403/4404 (private, unknown) is not reopened
 * The socket pings every 25 s: the server closes one silent for 90 s.
 */

import { api } from '../core/api.js';
/** @import { Arena } from '../types/wire' */

const POLL_MS = 5000; // while the socket is down
const PING_MS = 25_000;
const RETRY_MS = [500, 1000, 2000, 5000, 10_000, 15_000];
const FINAL = new Set([1008, 4403, 4404]);

/**
 * @param {string} id @param {string | null} key
 * @param {{onArena: (a: Arena) => void, onPaired: (gameId: string) => void, onError: (e: any) => void, onStatus?: (s: string) => void}} on
 */
export function arenaLive(id, key, on) {
  const query = key ? `?key=${encodeURIComponent(key)}` : '';
  const path = `/api/arenas/${encodeURIComponent(id)}${query}`;
  let ws = null;
  let attempt = 0;
  let retry = 0;
  let poll = 0;
  let ping = 0;
  let closed = false;
  let busy = null;

  async function refresh() {
    if (busy) return busy;
    busy = (async () => {
      try {
        const arena = /** @type {Arena} */ (await api('GET', path));
        on.onArena(arena);
        return arena;
      } catch (error) {
        on.onError(error);
        return null;
      } finally {
        busy = null;
      }
    })();
    return busy;
  }

  function polling(on_) {
    clearInterval(poll);
    if (on_ && !closed) poll = setInterval(refresh, POLL_MS);
  }

  function connect() {
    clearTimeout(retry);
    if (closed || (ws && ws.readyState <= WebSocket.OPEN)) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws/arenas/${encodeURIComponent(id)}${query}`);
    ws = socket;
    socket.addEventListener('open', () => {
      attempt = 0;
      polling(false);
      clearInterval(ping);
      ping = setInterval(() => socket.send('{"type":"ping"}'), PING_MS);
      on.onStatus?.('open');
      refresh();
    });
    socket.addEventListener('message', (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === 'standings' && msg.arena) on.onArena(msg.arena);
      else if (msg.type === 'paired' && msg.game_id) on.onPaired(msg.game_id);
    });
    socket.addEventListener('close', (event) => {
      if (ws !== socket) return;
      ws = null;
      clearInterval(ping);
      on.onStatus?.('closed');
      if (closed || FINAL.has(event.code)) return;
      polling(true);
      const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] * (0.75 + Math.random() * 0.5);
      attempt += 1;
      retry = setTimeout(() => {
        if (document.visibilityState === 'visible' && navigator.onLine !== false) connect();
      }, delay);
    });
  }

  const wake = () => {
    if (!closed && document.visibilityState === 'visible' && !ws) connect();
  };
  window.addEventListener('online', wake);
  document.addEventListener('visibilitychange', wake);
  connect();

  return {
    refresh,
    close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(ping);
      polling(false);
      window.removeEventListener('online', wake);
      document.removeEventListener('visibilitychange', wake);
      ws?.close(1000);
      ws = null;
    },
  };
}
