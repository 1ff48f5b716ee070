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

/** core/api.js GameSocket's handlers. */
export interface SocketHandlers {
  onState?: (msg: Received<StateFrame>) => void;
  onMove?: (msg: Received<MoveFrame>) => void;
  onMessage?: (msg: ServerFrame) => void;
  onStatus?: (status: 'connecting' | 'open' | 'closed') => void;
}

/** An arena as GET /api/arenas lists it (the contract in app/api/arenas.py; times are
 *  the server's epoch ms). */
export interface ArenaSummary {
  id: string;
  game: string;
  clock: string;
  minutes: number;
  rated: boolean;
  private: boolean;
  schedule: 'hourly' | 'evening' | null;
  starts_at: number;
  ends_at: number;
  status: 'upcoming' | 'running' | 'over';
  players: number;
  server_ms?: number;
}

/** One game of a player's arena, in the order played. */
export interface ArenaGame {
  game_id: string;
  result: 'win' | 'draw' | 'loss' | 'aborted';
  points: number;
  fire: boolean;
  berserk: boolean;
}

/** A row of an arena's standings. */
export interface Standing {
  rank: number;
  name: string | null;
  you: boolean;
  score: number;
  fire: boolean;
  paused: boolean;
  playing: boolean;
  performance: number | null;
  games: ArenaGame[];
}

/** GET /api/arenas/{id}: the summary, the standings, the viewer's place, a private arena's link. */
export interface Arena extends ArenaSummary {
  standings: Standing[];
  me: { joined: boolean; paused: boolean; game_id: string | null };
  link: string | null;
}
