// The types of the page's own contracts between core/ modules and a game's (not the wire's:
// those are wire.d.ts): what a move comes to, a session's and a game page's hooks, a
// socket's handlers.

import type { ApiError } from '../core/api.js';
import type { GameAnswer, MoveAnswer, MoveFrame, Received, ServerFrame, StateFrame } from './wire';

/** What a move comes to (core/session.js `move`): answered (`ok`, `result`), refused
 *  (`error`), or dropped (`gone`: another game opened first). */
export interface MoveOutcome {
  ok: boolean;
  result?: MoveAnswer;
  error?: ApiError | null;
  gone?: boolean;
}

/** core/session.js's hooks. */
export interface SessionHooks {
  adopt?: (data: GameAnswer, why: string) => void;
  play?: (result: MoveAnswer) => Promise<void> | void;
  connection?: (state: 'online' | 'offline') => void;
}

/** core/game-page.js's hooks (its header says when each is called). */
export interface PageHooks extends SessionHooks {
  opened: (how: string) => void;
  failed: (error: ApiError, how: string) => void;
  notice: (text: string, kind?: string) => void;
  slot?: () => string;
  address?: () => string | null;
}

/** core/socket.js GameSocket's handlers. */
export interface SocketHandlers {
  onState?: (msg: Received<StateFrame>) => void;
  onMove?: (msg: Received<MoveFrame>) => void;
  onMessage?: (msg: ServerFrame) => void;
  onStatus?: (status: 'connecting' | 'open' | 'closed') => void;
}
