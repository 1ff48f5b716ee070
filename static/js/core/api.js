/**
 * api — the REST client (the game socket, core/socket.js, is loaded only by a live game).
 *
 *   await api(method, path, body?) → parsed JSON (null for 204)
 *       throws ApiError for any non-2xx answer, a network failure (status 0, code "network")
 *       or a body that is not JSON (code "bad_response")
 *   class ApiError extends Error {status, code, message, details, body}
 *       built from the server's {"error": {code, message, details?}}; body is the whole
 *       answer (a 409 stale_version carries the current state in body.current)
 *
 *   moveAnswer(data) → {version, view, events, status, outcome, server_ms}: a move's answer,
 *       the same from a REST or socket move result and from a socket move frame
 */

import { t } from './i18n.js';

/** @import { ErrorFrame, ErrorResponse, MoveAnswer, MoveFrame, MoveResult } from '../types/wire' */

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (the REST one a socket error frame carries; 0: no answer)
   * @param {string} code @param {string} message @param {any} [details]
   * @param {ErrorResponse | ErrorFrame | string | null} [body] the whole answer
   */
  constructor(status, code, message, details = null, body = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.body = body;
  }

  /** @param {number} status @param {any} body */
  static from(status, body) {
    const error = body && typeof body === 'object' ? body.error : null;
    if (error && typeof error === 'object') {
      return new ApiError(status, String(error.code ?? 'error'), String(error.message ?? ''), error.details ?? null, body);
    }
    return new ApiError(status, 'http_error', t('common.error.generic'), null, body);
  }
}

/** @param {string} method @param {string} path @param {object} [body] @returns {Promise<any>} */
export async function api(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', t('common.error.network'));
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new ApiError(response.status, 'bad_response', t('common.error.generic'), null, text);
    }
  }
  if (!response.ok) throw ApiError.from(response.status, data);
  return data;
}

/** The one shape a move is answered in, whichever way it went (REST or socket).
 *  @param {MoveResult | MoveFrame} data @returns {MoveAnswer} */
export function moveAnswer(data) {
  return {
    version: data.version,
    view: data.view,
    events: data.events ?? [],
    status: data.status,
    outcome: data.outcome ?? null,
    server_ms: data.server_ms,
  };
}
