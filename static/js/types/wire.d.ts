// The wire's types for JSDoc, named after the OpenAPI document's schemas (docs/wire.md).
// api.d.ts beside this file is generated from that document (`make types`, which `make
// lint` runs; git-ignored): never edit it; a change to the server's models shows here
// once it is generated again.
//
//   /** @import { Snapshot, PairsView } from '../../types/wire' */
//   /** @param {PairsView} view */

import type { components } from './api';

type Schemas = components['schemas'];

/** The document's schema of that name; `any` while the document has none (a game whose
 *  engine does not publish its view, moves, params or events yet checks as before). */
type Schema<Name extends string> = Name extends keyof Schemas ? Schemas[Name] : any;

// REST answers and bodies
export type Snapshot = Schemas['Snapshot'];
export type LoadedGame = Schemas['LoadedGame'];
export type CreatedGame = Schemas['CreatedGame'];
export type MoveResult = Schemas['MoveResult'];
export type MoveRequest = Schemas['MoveRequest'];
export type CreateGame = Schemas['CreateGame'];
export type GameStatus = Schemas['GameStatus'];
export type Outcome = Schemas['Outcome'];
export type Rematch = Schemas['Rematch'];
export type ErrorResponse = Schemas['ErrorResponse'];
export type ErrorInfo = Schemas['ErrorInfo'];
export type Replay = Schemas['Replay'];
// Arenas (GET /api/arenas, /api/arenas/{id}, the socket /ws/arenas/{id})
export type ArenaSummary = Schemas['ArenaSummary'];
export type Arena = Schemas['ArenaAnswer'];
export type Standing = Schemas['Standing'];
export type ArenaGame = Schemas['ArenaGameLine'];
export type ReplayStep = Schemas['ReplayStep'];
export type GameCatalog = Schemas['GameCatalog'];
export type CatalogGame = Schemas['CatalogGame'];
export type OpenGames = Schemas['OpenGames'];
export type RematchAnswer = Schemas['RematchAnswer'];
export type Me = Schemas['Me'];
export type History = Schemas['History'];
export type MyStats = Schemas['MyStats'];
export type Records = Schemas['Records'];
export type Stats = Schemas['Stats'];
export type DailyBoard = Schemas['DailyBoard'];
export type Leaderboard = Schemas['Leaderboard'];
export type SeekState = Schemas['SeekState'];
export type TransferCode = Schemas['TransferCode'];
export type PushKey = Schemas['PushKey'];
export type GameReview = Schemas['GameReview'];

// The socket (/ws/games/{id}): what the server sends, what a client sends.
export type ServerFrame = Schemas['ServerFrame'];
export type StateFrame = Schemas['StateFrame'];
export type MoveFrame = Schemas['MoveFrame'];
export type ResultFrame = Schemas['ResultFrame'];
export type ErrorFrame = Schemas['ErrorFrame'];
export type PresenceFrame = Schemas['PresenceFrame'];
export type JoinedFrame = Schemas['JoinedFrame'];
export type RematchFrame = Schemas['RematchFrame'];
export type CancelledFrame = Schemas['CancelledFrame'];
export type PongFrame = Schemas['PongFrame'];
export type ClientFrame = Schemas['ClientFrame'];
export type MoveMessage = Schemas['MoveMessage'];
export type SyncMessage = Schemas['SyncMessage'];
export type PingMessage = Schemas['PingMessage'];

/** A server frame as core/api.js hands it on: stamped with the moment it arrived. */
export type Received<Frame> = Frame & { receivedAt?: number };

/** A socket result as core/api.js resolves a move with: the REST answer, the version it was
 *  made on and the moment it arrived. */
export type SocketResult = MoveResult & { from_version: number; receivedAt: number };

/** An event of any game: what a move frame carries (its game is the socket's). */
export type AnyEvent = MoveFrame['events'][number];

/** Whatever the session takes (core/session.js `take`): a snapshot (loaded, created, a
 *  move's result, a state frame) or a move frame, each with the keys it has; its events
 *  are one game's, read as any game's (a move frame's are). */
export type GameAnswer = Partial<Omit<StateFrame, 'type' | 'events'>> &
  Partial<Omit<CreatedGame, 'type' | 'events'>> &
  Partial<Omit<MoveFrame, 'type' | 'events'>> & { events?: AnyEvent[]; receivedAt?: number };

/** A move's answer in the one shape both transports give (core/api.js `moveAnswer`). */
export type MoveAnswer = Pick<MoveResult, 'version' | 'view' | 'status' | 'outcome' | 'server_ms'> & {
  events: AnyEvent[];
};

// Each game's own: its view, its moves, its params, its events, by the game's name
// (`View<'pairs'>` is the schema `PairsView`): a new game needs no line here.
type Named<Game extends string, Kind extends string> = Schema<`${Capitalize<Game>}${Kind}`>;
export type View<Game extends string> = Named<Game, 'View'>;
export type Move<Game extends string> = Named<Game, 'Move'>;
export type Params<Game extends string> = Named<Game, 'Params'>;
export type GameEvent<Game extends string> = Named<Game, 'Event'>;

export type BlocksView = View<'blocks'>;
export type BlocksMove = Move<'blocks'>;
export type BlocksParams = Params<'blocks'>;
export type BlocksEvent = GameEvent<'blocks'>;
export type PairsView = View<'pairs'>;
export type PairsMove = Move<'pairs'>;
export type PairsParams = Params<'pairs'>;
export type PairsEvent = GameEvent<'pairs'>;
export type TrianglesView = View<'triangles'>;
export type TrianglesMove = Move<'triangles'>;
export type TrianglesParams = Params<'triangles'>;
export type TrianglesEvent = GameEvent<'triangles'>;
